package io.chanledger.api.provider.watchtower;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.chanledger.api.ledger.channels.command.ChannelCommits;
import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.api.ledger.channels.command.VoucherAdmission;
import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.provider.gateway.Agent;
import io.chanledger.api.provider.gateway.GatewayPrices;
import io.chanledger.api.support.ChannelStates;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import io.chanledger.api.provider.watchtower.ClaimStore.Claim;
import io.chanledger.api.provider.watchtower.ClaimStore.Status;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.RpcProxy;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.chain.rpc.RetryPolicy;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.domain.channel.CloseKind;
import io.chanledger.domain.channel.ExcessReturned;
import io.chanledger.domain.channel.ExpireChannel;
import io.chanledger.domain.channel.MeteredRequest;
import io.chanledger.domain.channel.OpenChannel;
import io.chanledger.domain.channel.RecordClaim;
import io.chanledger.domain.channel.SettleRequest;
import io.chanledger.domain.channel.SignedVoucher;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.math.BigInteger;
import java.time.Instant;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.sql.DataSource;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Keys;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/**
 * Claiming on the devnet. Time only moves forward here (the chain listener follows this node):
 * expiries are computed from the chain's own clock, never the wall clock.
 */
class WatchtowerTest extends LedgerIntegrationTest {

    private static final Duration CLAIM_WAIT = Duration.ofSeconds(60);
    private static final BigInteger DEPOSIT = BigInteger.valueOf(2_000_000);

    @Autowired
    ProviderIdentity identity;
    @Autowired
    ApplicationContext context;
    @Autowired
    ChannelHistory history;
    @Autowired
    ClaimStore claims;
    @Autowired
    ChainProperties chain;
    @Autowired
    DataSource dataSource;
    @Autowired
    Clock clock;
    @Autowired
    VoucherAdmission admission;

    @Autowired
    ChannelCommits commits;
    @Autowired
    CommandGateway commands;
    @Autowired
    WatchtowerProperties settings;
    @Autowired
    ChainViewCheck chainViewCheck;

    /**
     * Vouchers run ahead of the charged total (the client adds its estimate), and a claim can only
     * be made with a signed amount: the expiry claim takes the smallest voucher covering what was
     * charged, so the chain pays the provider more than it earned. Once the channel has expired,
     * the watchtower gives that excess back to the consumer with a USDC transfer recorded as the
     * channel's ExcessReturned: the consumer pays exactly what it was charged, the provider keeps
     * exactly that less the protocol's fee on its claim.
     */
    @Test
    void anExpiryClaimAboveTheChargedTotalIsGivenBackSoTheConsumerPaysExactlyWhatItWasCharged() {
        Devnet devnet = devnet();
        String provider = identity.address();
        devnet.setBalance(provider, Devnet.GAS_MONEY);
        devnet.mint(provider, BigInteger.valueOf(1_000_000));
        long lifetime = 7_200;
        long margin = ExpiryMargin.of(settings).seconds(lifetime, 0L);
        Agent agent = Agent.create(devnet, baseUrl());
        agent.open(provider, DEPOSIT, lifetime);
        ChannelStates.awaitState(history, agent.channelId, s -> true, "the ledger to record the channel");
        GatewayPrices prices = new GatewayPrices(context);
        BigInteger total = BigInteger.ZERO;
        List<BigInteger> vouchers = new java.util.ArrayList<>();
        for (String prompt : List.of("first question", "second, longer question about channels")) {
            BigInteger voucher = agent.authorise(total.add(prices.hold("echo-1", prompt, null))
                    .add(BigInteger.valueOf(9_000)));
            vouchers.add(voucher);
            Http.Reply reply = agent.chat(agent.nextVoucher(voucher), Agent.chatBody("echo-1", prompt, null, false));
            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            total = total.add(prices.cost("echo-1", prompt, GatewayPrices.ECHO_ANSWER_TOKENS));
        }
        BigInteger charged = total;
        assertThat(history.state(agent.channelId).orElseThrow().chargedTotal()).isEqualTo(charged);
        assertThat(claims.ofChannel(agent.channelId)).as("not due while the expiry is beyond the margin").isEmpty();
        BigInteger providerBefore = devnet.balanceOf(provider);

        devnet.increaseTime(lifetime - margin + 5);
        devnet.mine();

        await("the watchtower's claim to be confirmed by the ledger").atMost(CLAIM_WAIT)
                .until(() -> claims.ofChannel(agent.channelId).stream().anyMatch(c -> c.status() == Status.CONFIRMED));
        Claim claim = claims.ofChannel(agent.channelId).getFirst();
        assertThat(claim.reason()).isEqualTo(ClaimPlanner.Reason.EXPIRY);
        assertThat(claim.amount()).as("the smallest voucher covering what was charged")
                .isEqualTo(vouchers.stream().filter(v -> v.compareTo(charged) >= 0).min(BigInteger::compareTo)
                        .orElseThrow())
                .isGreaterThan(charged);
        assertThat(devnet.getChannel(agent.channelId).claimed()).isEqualTo(claim.amount());
        long expiry = devnet.getChannel(agent.channelId).expiry().longValueExact();
        assertThat(devnet.latestBlockTimestamp().longValueExact()).isLessThan(expiry);
        assertThat(history.state(agent.channelId).orElseThrow().returned())
                .as("nothing is given back while the channel may still be charged").isZero();

        devnet.increaseTime(expiry - devnet.latestBlockTimestamp().longValueExact() + 5);
        devnet.mine();
        ChannelState returned = ChannelStates.awaitState(history, agent.channelId,
                s -> s.returned().signum() > 0, "the excess to be given back once the channel expired");
        assertThat(returned.returned()).isEqualTo(claim.amount().subtract(charged));
        assertThat(returned.excessClaimed()).isZero();
        TransactionReceipt closed = devnet.close(agent.wallet, agent.channelId);
        assertThat(closed.isStatusOK()).isTrue();

        ChannelState state = ChannelStates.awaitState(history, agent.channelId,
                s -> s.status() == ChannelStatus.CLOSED, "the listener to record the close");
        assertThat(state.closeKind()).isEqualTo(CloseKind.AFTER_EXPIRY);
        assertThat(state.claimed().subtract(state.returned())).as("claimed − returned = charged").isEqualTo(charged);
        assertThat(DEPOSIT.subtract(devnet.balanceOf(agent.address()))).as("what the consumer paid in all")
                .isEqualTo(charged);
        assertThat(devnet.balanceOf(provider).subtract(providerBefore)).as("what the provider kept")
                .isEqualTo(charged.subtract(state.feesPaid()));
        for (int round = 0; round < 3; round++) {
            watchtower(identity).runOnce();
        }
        assertThat(devnet.balanceOf(agent.address())).as("given back once only").isEqualTo(DEPOSIT.subtract(charged));
        assertThat(new JdbcTemplate(dataSource).queryForObject(
                "SELECT returned FROM channel_balance WHERE channel_id = ?", BigInteger.class, agent.channelId))
                .as("the read model shows the return").isEqualTo(state.returned());
    }

    @Test
    void aClaimTheContractRefusesForGoodIsNotRetried() {
        Credentials other = otherProvider();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Watchtower watchtower = watchtower(other, new EthApi(new JsonRpcClient(devnet().rpcUrl(), Duration.ofSeconds(5),
                RetryPolicy.none())), meters);
        DigestSigner consumer = TestKeys.wallet("watchtower-consumer-" + System.nanoTime());
        String channelId = Channels.randomChannelId();
        long chainNow = devnet().latestBlockTimestamp().longValueExact();
        commands.sendAndWait(new OpenChannel(channelId, consumer.address(), address(other), DEPOSIT, chainNow + 86_400,
                Channels.nextChainRef()));
        admission.admit(SignedVoucher.parse(channelId, "500000", "1", Channels.sign(consumer, channelId,
                BigInteger.valueOf(500_000), BigInteger.ONE)), null);
        awaitReadModel(channelId);

        await("the claim to be given up").atMost(CLAIM_WAIT).until(() -> {
            watchtower.runOnce();
            return claims.ofChannel(channelId).stream().anyMatch(c -> c.status() == Status.FAILED);
        });
        Claim failed = claims.ofChannel(channelId).getFirst();
        for (int round = 0; round < 5; round++) {
            watchtower.runOnce();
        }

        assertThat(claims.ofChannel(channelId)).containsExactly(failed);
        assertThat(failed.lastError()).contains("ChannelNotFound");
        assertThat(failed.attempts()).isEqualTo(1);
        assertThat(meters.get("chan.gateway.claims.failed").gauge().value()).isEqualTo(1.0);
        assertThat(new JdbcTemplate(dataSource).queryForObject(
                "SELECT COUNT(*) FROM gateway_claim WHERE provider = ?", Long.class, address(other))).isEqualTo(1);
        assertThat(transactionCount(address(other))).isZero();
    }

    @Test
    void aClaimSurvivesAnRpcOutageAndLandsOnceTheNodeAnswersAgain() throws Exception {
        Credentials other = otherProvider();
        Devnet devnet = devnet();
        devnet.setBalance(address(other), Devnet.GAS_MONEY);
        Agent agent = Agent.create(devnet, baseUrl());
        agent.open(address(other), DEPOSIT, 86_400);
        ChannelStates.awaitState(history, agent.channelId, s -> true, "the ledger to record the channel");
        BigInteger amount = BigInteger.valueOf(750_000);
        byte[] signature = devnet.signVoucher(agent.wallet, agent.channelId, amount, BigInteger.ONE);
        admission.admit(SignedVoucher.parse(agent.channelId, amount.toString(), "1", Hex.encode(signature)), null);
        awaitReadModel(agent.channelId);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (RpcProxy proxy = new RpcProxy(devnet.rpcUrl()).serveWhileDown(Set.of("eth_getBlockByNumber"))) {
            Watchtower watchtower = watchtower(other, new EthApi(new JsonRpcClient(proxy.url(), Duration.ofSeconds(5),
                    RetryPolicy.none())), meters);
            proxy.down(true);

            await("three claim attempts during the outage").atMost(CLAIM_WAIT).until(() -> {
                watchtower.runOnce();
                return claims.ofChannel(agent.channelId).stream().anyMatch(c -> c.attempts() >= 3);
            });
            Claim during = claims.ofChannel(agent.channelId).getFirst();
            assertThat(during.status()).isEqualTo(Status.PENDING);
            assertThat(during.failures()).isZero();
            assertThat(during.lastError()).isNotBlank();
            assertThat(devnet.getChannel(agent.channelId).claimed()).isZero();

            proxy.down(false);
            await("the claim to land and be recorded").atMost(CLAIM_WAIT).until(() -> {
                watchtower.runOnce();
                return claims.ofChannel(agent.channelId).getFirst().status() == Status.CONFIRMED;
            });
            assertThat(proxy.refused()).isGreaterThanOrEqualTo(3);
        }
        assertThat(devnet.getChannel(agent.channelId).claimed()).isEqualTo(amount);
        assertThat(history.state(agent.channelId).orElseThrow().claimed()).isEqualTo(amount);
        assertThat(meters.get("chan.gateway.claims").tag("outcome", "transient").counter().count())
                .isGreaterThanOrEqualTo(3);
        assertThat(transactionCount(address(other))).isEqualTo(1);
    }

    /**
     * The node never hears of the first broadcast of a return (the endpoint refuses
     * eth_sendRawTransaction while answering everything else), as after a crash between writing
     * the transfer down and handing it over. The transfer written down is sent again, the same
     * bytes and nonce, once the node answers: the consumer gets the excess once, and a watchtower
     * started afresh afterwards sends nothing more.
     */
    @Test
    void aReturnWhoseBroadcastWasLostIsSentAgainAndPaidOnce() throws Exception {
        Credentials other = otherProvider();
        Devnet devnet = devnet();
        devnet.setBalance(address(other), Devnet.GAS_MONEY);
        devnet.mint(address(other), BigInteger.valueOf(1_000_000));
        DigestSigner consumer = TestKeys.wallet("return-consumer-" + System.nanoTime());
        String channelId = Channels.randomChannelId();
        long expiry = devnet.latestBlockTimestamp().longValueExact() + 86_400;
        commands.sendAndWait(new OpenChannel(channelId, consumer.address(), address(other), DEPOSIT, expiry,
                Channels.nextChainRef()));
        admission.admit(SignedVoucher.parse(channelId, "500000", "1", Channels.sign(consumer, channelId,
                BigInteger.valueOf(500_000), BigInteger.ONE)), new MeteredRequest(BigInteger.valueOf(100_000),
                clock.instant().getEpochSecond() + 600, address(other)));
        commits.settle(new SettleRequest(channelId, BigInteger.ONE, BigInteger.valueOf(120_000),
                Instant.now().getEpochSecond()));
        commands.sendAndWait(new RecordClaim(channelId, BigInteger.valueOf(500_000), BigInteger.valueOf(10_000),
                Channels.nextChainRef()));
        commands.sendAndWait(new ExpireChannel(channelId, expiry, 1));
        BigInteger excess = BigInteger.valueOf(380_000);
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        await("the read model to show the expired channel's excess").atMost(CLAIM_WAIT).until(() -> jdbc.queryForObject(
                "SELECT COUNT(*) FROM channel_balance WHERE channel_id = ? AND status = 'expired'"
                        + " AND claimed = charged_total + ?", Long.class, channelId, excess) == 1);

        Set<String> allButBroadcast = Set.of("eth_call", "eth_estimateGas", "eth_getBlockByNumber",
                "eth_maxPriorityFeePerGas", "eth_getTransactionCount", "eth_getTransactionByHash",
                "eth_getTransactionReceipt", "eth_chainId", "eth_gasPrice", "eth_feeHistory", "eth_blockNumber");
        try (RpcProxy proxy = new RpcProxy(devnet.rpcUrl()).serveWhileDown(allButBroadcast)) {
            Watchtower watchtower = watchtower(other, new EthApi(new JsonRpcClient(proxy.url(), Duration.ofSeconds(5),
                    RetryPolicy.none())), new SimpleMeterRegistry());
            proxy.down(true);
            watchtower.runOnce();
            ReturnStore.Return sent = new ReturnStore(jdbc).ofChannel(channelId).getFirst();
            assertThat(sent.status()).as(String.valueOf(sent.lastError())).isEqualTo(ReturnStore.Status.SENT);
            assertThat(sent.amount()).isEqualTo(excess);
            assertThat(sent.rawTransaction()).isNotBlank();
            assertThat(devnet.balanceOf(consumer.address())).isZero();

            proxy.down(false);
            await("the same transfer to be sent again and recorded").atMost(CLAIM_WAIT).until(() -> {
                watchtower.runOnce();
                return history.state(channelId).orElseThrow().returned().signum() > 0;
            });
            assertThat(new ReturnStore(jdbc).ofChannel(channelId).getFirst().txHash()).isEqualTo(sent.txHash());
        }
        Watchtower restarted = watchtower(other, new EthApi(new JsonRpcClient(devnet.rpcUrl(), Duration.ofSeconds(5),
                RetryPolicy.none())), new SimpleMeterRegistry());
        for (int round = 0; round < 3; round++) {
            restarted.runOnce();
        }
        assertThat(devnet.balanceOf(consumer.address())).as("the excess, once").isEqualTo(excess);
        assertThat(history.state(channelId).orElseThrow().returned()).isEqualTo(excess);
        assertThat(history.events(channelId).stream().filter(e -> e.getPayload() instanceof ExcessReturned))
                .hasSize(1);
        assertThat(transactionCount(address(other))).as("one transfer in all").isEqualTo(1);
    }

    private Watchtower watchtower(Credentials provider, EthApi eth, SimpleMeterRegistry meters) {
        WatchtowerProperties settings = new WatchtowerProperties(true, Duration.ofMillis(300),
                "0.000001", Duration.ofHours(1), Duration.ofMillis(100), Duration.ofMillis(400), 3,
                Duration.ofSeconds(20), null, "0");
        return WatchtowerConfiguration.create(settings, eth, chain, provider, history, claims,
                new JdbcTemplate(dataSource), clock, new WatchtowerMetrics(meters, address(provider)), commands,
                chainViewCheck);
    }

    /** A second watchtower of the test gateway's own provider, driven by hand. */
    private Watchtower watchtower(ProviderIdentity provider) {
        return watchtower(provider.credentials(), new EthApi(new JsonRpcClient(devnet().rpcUrl(), Duration.ofSeconds(5),
                RetryPolicy.none())), new SimpleMeterRegistry());
    }

    private static Credentials otherProvider() {
        try {
            return Credentials.create(Keys.createEcKeyPair());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Lowercase, as the domain keeps addresses. */
    private static String address(Credentials provider) {
        return provider.getAddress().toLowerCase(Locale.ROOT);
    }

    private void awaitReadModel(String channelId) {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        await("the read model to show the channel's claimable amount").atMost(CLAIM_WAIT)
                .until(() -> jdbc.queryForObject(
                "SELECT COUNT(*) FROM channel_balance WHERE channel_id = ? AND claimable > 0", Long.class, channelId) == 1);
    }

    private long transactionCount(String address) {
        return new EthApi(new JsonRpcClient(devnet().rpcUrl(), Duration.ofSeconds(5), RetryPolicy.none()))
                .transactionCount(address, "latest").longValueExact();
    }
}
