package io.chanledger.api.provider.watchtower;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.api.config.Role;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.provider.gateway.Agent;
import io.chanledger.api.provider.gateway.GatewayPrices;
import io.chanledger.api.support.ChannelStates;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.RoleInstance;
import io.chanledger.testsupport.AnvilNode;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.OpenedChannel;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.chain.rpc.RetryPolicy;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * When the watchtower claims, on a provider of its own ({@code chan.role=provider}, the default
 * expiry margins) following a node of its own, whose clock the test moves forward
 * ({@code evm_increaseTime}, {@code evm_mine}) by the default round of 30 s, running one round of
 * the watchtower after each step. Its timer's own rounds are an hour apart, so every claim here
 * comes from a round the test ran, or from the gateway's call for one.
 *
 * <p>The deployed client opens channels of 2 minutes, 10 minutes and an hour and closes them
 * itself: an unsigned close request, then {@code cooperativeClose}. Such a channel costs the
 * provider no transaction when it is closed before its last tenth of life (at least its last
 * minute); one the agent abandons is claimed before it expires and its excess given back after:
 * two. The figures are printed as a table ({@code deploy/bench/watchtower-bench.sh}).
 */
class ClaimTimingTest {

    private static final long ROUND = 30;
    private static final String MODEL = "echo-flat";
    private static final String PROMPT = "one request of the agent's task";
    private static final BigInteger DEPOSIT = BigInteger.valueOf(2_000_000);
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static AnvilNode node;
    private static Devnet devnet;
    private static ConfigurableApplicationContext provider;
    private static String baseUrl;
    private static String address;
    private static Watchtower watchtower;
    private static ChannelHistory history;
    private static GatewayPrices prices;
    private static JdbcTemplate jdbc;

    @BeforeAll
    static void start() {
        node = AnvilNode.start();
        devnet = Devnet.deploy(node);
        provider = RoleInstance.start(Role.PROVIDER, "chan_ledger_claim_timing", Map.of(
                "chan.chain.rpc-url", node.rpcUrl(),
                "chan.gateway.watchtower.interval", "1h",
                "chan.gateway.watchtower.expiry-margin", "1h"));
        baseUrl = RoleInstance.baseUrl(provider);
        address = provider.getBean(ProviderIdentity.class).address();
        watchtower = provider.getBean(Watchtower.class);
        history = provider.getBean(ChannelHistory.class);
        prices = new GatewayPrices(provider);
        jdbc = new JdbcTemplate(provider.getBean(DataSource.class));
        devnet.setBalance(address, Devnet.GAS_MONEY);
        devnet.mint(address, BigInteger.valueOf(10_000_000));
    }

    @AfterAll
    static void stop() {
        if (provider != null) {
            provider.close();
        }
        if (node != null) {
            node.close();
        }
    }

    /** A channel of {@code lifetime} seconds, recorded by the provider's ledger, and its first request paid. */
    private record Opened(Agent agent, long openedAt, long expiry) {
    }

    private Opened openAndPay(long lifetime) {
        Agent agent = Agent.create(devnet, baseUrl);
        OpenedChannel opened = agent.open(address, DEPOSIT, lifetime);
        ChannelStates.awaitState(history, agent.channelId, s -> !s.provisional(), "the ledger to record the channel");
        assertThat(pay(agent).status()).isEqualTo(200);
        long expiry = opened.expiry().longValueExact();
        return new Opened(agent, expiry - lifetime, expiry);
    }

    /**
     * A request signed as the deployed client signs it: the previous amount plus the price × 1.2.
     * Returns once the channel read model, which the watchtower walks, shows its voucher.
     */
    private static Http.Reply pay(Agent agent) {
        BigInteger estimate = prices.hold(MODEL, PROMPT, null).multiply(BigInteger.valueOf(12)).divide(BigInteger.TEN);
        BigInteger previous = history.state(agent.channelId).map(ChannelState::highestAmount).orElse(BigInteger.ZERO);
        Http.Reply reply = agent.chat(agent.nextVoucher(agent.authorise(previous.add(estimate))),
                Agent.chatBody(MODEL, PROMPT, null, false));
        assertThat(reply.status()).as(reply.body()).isIn(200, 409);
        BigInteger highest = history.state(agent.channelId).orElseThrow().highestAmount();
        await("the read model to show the channel's voucher").atMost(WAIT).until(() -> jdbc.queryForObject(
                "SELECT COUNT(*) FROM channel_balance WHERE channel_id = ? AND highest_amount = ?", Long.class,
                agent.channelId, highest) == 1);
        return reply;
    }

    private static Http.Reply unsignedClose(String channelId) {
        return Http.postJson(baseUrl + "/v1/close-channel", "{\"channelId\":\"" + channelId + "\"}");
    }

    private static long chainTime() {
        return devnet.latestBlockTimestamp().longValueExact();
    }

    private static long providerTransactions() {
        return eth().transactionCount(address, "latest").longValueExact();
    }

    private static EthApi eth() {
        return new EthApi(new JsonRpcClient(node.rpcUrl(), Duration.ofSeconds(5), RetryPolicy.none()));
    }

    /**
     * Moves the clock to {@code target} in rounds, one watchtower round after each step, run once
     * the ledger has recorded the mined block: a round on a view the watchtower knows to be behind
     * plans nothing, and on a busy machine the listener may not have polled yet.
     */
    private static void runUntil(long target) {
        while (chainTime() < target) {
            devnet.increaseTime(Math.min(ROUND, target - chainTime()));
            devnet.mine();
            long head = eth().blockNumber();
            await("the listener to record block " + head).atMost(WAIT).until(() -> jdbc.queryForObject(
                    "SELECT COALESCE(MAX(block_number), -1) FROM chain_listener_checkpoint", Long.class) >= head);
            watchtower.runOnce();
        }
    }

    /** Where a cooperative agent stops: before the channel's last tenth of life, and before its last minute. */
    private static long closesAt(Opened channel) {
        long lifetime = channel.expiry() - channel.openedAt();
        return channel.expiry() - Math.max(60, lifetime / 10) - ROUND;
    }

    /** Works until {@link #closesAt}, then closes as the deployed client does; the provider's transactions for it. */
    private long closeCooperatively(long lifetime) {
        long before = providerTransactions();
        Opened channel = openAndPay(lifetime);
        runUntil(closesAt(channel));
        assertThat(pay(channel.agent()).status()).isEqualTo(200);
        Http.Reply close = unsignedClose(channel.agent().channelId);
        assertThat(close.status()).as(close.body()).isEqualTo(200);
        assertThat(devnet.cooperativeClose(channel.agent().wallet, channel.agent().channelId,
                new BigInteger(close.json().path("finalAmount").asText()),
                Hex.decode(close.json().path("signature").asText())).isStatusOK()).isTrue();
        ChannelStates.awaitState(history, channel.agent().channelId, s -> s.status() == ChannelStatus.CLOSED,
                "the listener to record the close");
        runUntil(channel.expiry() + 2 * ROUND);
        return providerTransactions() - before;
    }

    /** Pays twice and leaves; the chain time at which the claim was first seen, and the provider's transactions. */
    private record Abandoned(long claimedBy, long expiry, long transactions) {
    }

    private Abandoned abandon(long lifetime) {
        long before = providerTransactions();
        Opened channel = openAndPay(lifetime);
        assertThat(pay(channel.agent()).status()).isEqualTo(200);
        String channelId = channel.agent().channelId;
        long claimedBy = Long.MAX_VALUE;
        while (chainTime() < channel.expiry() + ROUND) {
            runUntil(Math.min(chainTime() + ROUND, channel.expiry() + ROUND));
            if (claimedBy == Long.MAX_VALUE && devnet.getChannel(channelId).claimed().signum() > 0) {
                claimedBy = chainTime();
            }
        }
        await("the excess claimed to be given back once the channel expired").atMost(WAIT).until(() -> {
            watchtower.runOnce();
            return history.state(channelId).orElseThrow().returned().signum() > 0;
        });
        ChannelState state = history.state(channelId).orElseThrow();
        assertThat(state.claimed().subtract(state.returned())).as("claimed − returned = charged")
                .isEqualTo(state.chargedTotal());
        return new Abandoned(claimedBy, channel.expiry(), providerTransactions() - before);
    }

    /**
     * A cooperatively closed channel of each usual length costs the provider no watchtower
     * transaction; an abandoned one is claimed before its expiry (and its excess given back after).
     */
    @Test
    void aChannelClosedCooperativelyCostsNoWatchtowerTransactionAndAnAbandonedOneIsClaimedBeforeItsExpiry() {
        List<String> table = new ArrayList<>(List.of(
                "| channel | closed cooperatively, before its last tenth (at least its last minute) | abandoned |",
                "|---|---|---|"));
        for (long lifetime : List.of(120L, 600L, 3_600L)) {
            long cooperative = closeCooperatively(lifetime);
            Abandoned abandoned = abandon(lifetime);

            assertThat(cooperative).as("%d s, closed cooperatively: watchtower transactions", lifetime).isZero();
            assertThat(abandoned.claimedBy()).as("%d s, abandoned: claimed before its expiry", lifetime)
                    .isLessThan(abandoned.expiry());
            assertThat(abandoned.transactions()).as("%d s, abandoned: a claim and a return", lifetime).isEqualTo(2);
            table.add("| " + (lifetime < 3_600 ? lifetime / 60 + " min" : lifetime / 3_600 + " h") + " | " + cooperative + " | " + abandoned.transactions()
                    + " (claimed " + (abandoned.expiry() - abandoned.claimedBy()) + " s or more before expiry,"
                    + " the excess returned after it) |");
        }
        System.out.println("Watchtower transactions per channel (rounds of " + ROUND + " s):");
        table.forEach(System.out::println);
    }

    /**
     * After an unsigned close, the request that passes it has the gateway call the watchtower at
     * once: the claim above it is recorded long before the watchtower's next round (an hour away),
     * and the channel serves requests again.
     */
    @Test
    void theRequestPassingAnUnsignedCloseHasTheWatchtowerClaimAtOnce() {
        Opened channel = openAndPay(86_400);
        String channelId = channel.agent().channelId;
        Http.Reply close = unsignedClose(channelId);
        assertThat(close.status()).isEqualTo(200);
        BigInteger authorized = new BigInteger(close.json().path("finalAmount").asText());
        assertThat(pay(channel.agent()).status()).isEqualTo(200);

        ChannelStates.awaitState(history, channelId, s -> s.claimed().compareTo(authorized) > 0,
                "the claim above the authorization, without a round of the watchtower");
        assertThat(devnet.callCooperativeClose(channel.agent().address(), channelId, authorized,
                Hex.decode(close.json().path("signature").asText())).success()).isFalse();
        assertThat(pay(channel.agent()).status()).as("served again").isEqualTo(200);
    }
}
