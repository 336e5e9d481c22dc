package io.chanledger.api.provider.watchtower;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.provider.gateway.Agent;
import io.chanledger.api.provider.gateway.GatewayPrices;
import io.chanledger.api.support.AdminReads;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.ProviderOnOwnChain;
import io.chanledger.testsupport.Devnet;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.web3j.protocol.core.DefaultBlockParameterName;

/**
 * A provider whose listener follows a local devnet by its finalized block (anvil finalizes a block
 * only once 64 more are mined on top of it): the ledger knows the channel only from the voucher
 * that opened it provisionally, and nothing of what happened on-chain since. Its watchtower plans
 * nothing from that view, even for a channel charged past the claim threshold and about to expire,
 * and claims it once the listener has caught up.
 */
class WatchtowerWaitsForTheListenerTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final BigInteger DEPOSIT = BigInteger.valueOf(2_000_000);
    private static ProviderOnOwnChain provider;

    @BeforeAll
    static void start() {
        // a claim is due on what one request charges, and within the expiry margin
        provider = ProviderOnOwnChain.start("chan_ledger_watchtower_waits", Map.of(
                "chan.listener.finality", "finalized",
                "chan.gateway.watchtower.claim-threshold", "0.000001"));
    }

    @AfterAll
    static void stop() {
        provider.close();
    }

    @Test
    void aChargedChannelNearExpiryIsNotClaimedFromAStaleViewAndIsClaimedOnceTheListenerCatchesUp() {
        Devnet devnet = provider.devnet;
        String base = provider.baseUrl();
        String providerAddress = provider.context.getBean(ProviderIdentity.class).address();
        devnet.setBalance(providerAddress, Devnet.GAS_MONEY);
        Agent agent = Agent.create(devnet, base);
        // two hours to expiry: due once less than the expiry margin is left
        agent.open(providerAddress, DEPOSIT, 7_200);
        // 70 minutes of chain time later, the listener still sees the genesis block only
        devnet.increaseTime(4_200);
        devnet.mine();

        // a flat-priced request, whose voucher is exactly what it is charged: a claim due on the
        // threshold or the expiry takes that voucher. The gateway opens the channel from the contract
        GatewayPrices prices = new GatewayPrices(provider.context);
        String prompt = "a question the ledger meters";
        BigInteger price = prices.hold("echo-flat", prompt, null);
        assertThat(prices.cost("echo-flat", prompt, GatewayPrices.ECHO_ANSWER_TOKENS)).isEqualTo(price);
        Http.Reply paid = agent.chat(agent.nextVoucher(agent.authorise(price)),
                Agent.chatBody("echo-flat", prompt, null, false));
        assertThat(paid.status()).as(paid.body()).isEqualTo(200);
        await("the read model to show the charge").atMost(WAIT).until(() -> AdminReads.get(base + "/api/channels/"
                + agent.channelId).json().path("chargedTotal").asText().equals(price.toString()));
        long waitedBefore = waits(base);
        await("three rounds that waited for the listener since").atMost(WAIT)
                .until(() -> waits(base) >= waitedBefore + 3);

        assertThat(devnet.getChannel(agent.channelId).claimed()).as("nothing claimed from a stale view").isZero();
        assertThat(devnet.web3j().ethGetTransactionCount(providerAddress, DefaultBlockParameterName.LATEST)
                .sendAsync().join().getTransactionCount()).as("no claim sent").isZero();
        assertThat(provider.context.getBean(ClaimStore.class).ofChannel(agent.channelId))
                .as("no claim planned").isEmpty();

        // 64 blocks further the channel's blocks are final: the ledger's view catches up
        provider.mine(70);
        await("the watchtower's claim on-chain").atMost(WAIT)
                .until(() -> devnet.getChannel(agent.channelId).claimed().equals(price));
        assertThat(provider.context.getBean(ClaimStore.class).ofChannel(agent.channelId)).hasSize(1);
    }

    /** Rounds that did nothing because the ledger's view was behind the chain, from the provider's metrics. */
    private static long waits(String base) {
        return AdminReads.get(base + "/actuator/prometheus").body().lines()
                .filter(line -> line.startsWith("chan_gateway_watchtower_waits_total"))
                .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .findFirst().orElse(0);
    }
}
