package io.chanledger.api.ledger.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.DevnetAccounts;
import io.chanledger.testsupport.RpcProxy;
import io.chanledger.chain.ingest.ChainListener;
import io.chanledger.chain.ingest.Finality;
import io.chanledger.chain.ingest.ListenerStore;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.chain.rpc.RetryPolicy;
import io.chanledger.chain.rpc.RpcException;
import java.math.BigInteger;
import java.time.Duration;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.common.transaction.TransactionManager;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.web3j.crypto.Credentials;

/** A node behind a proxy that fails every other request, in every way public endpoints fail. */
class FaultyRpcTest extends LedgerIntegrationTest {

    private static final BigInteger DEPOSIT = BigInteger.valueOf(1_000_000);
    private static final Credentials PROVIDER = DevnetAccounts.anvil(2);

    @Autowired
    ListenerStore store;
    @Autowired
    CommandGateway commands;
    @Autowired
    TransactionManager transactions;

    @Test
    void aNodeFailingHalfItsRequestsStillYieldsTheCompleteExactLedger() {
        LedgerView ledger = new LedgerView(baseUrl());
        try (SeparateChain chain = new SeparateChain(store, commands, transactions);
             RpcProxy proxy = RpcProxy.failingEveryOther(chain.node.rpcUrl(), Duration.ofMillis(1_200))) {
            Devnet devnet = chain.devnet;
            Credentials consumer = chain.freshConsumer(DEPOSIT.multiply(BigInteger.TEN));
            String closedTogether = devnet.open(consumer, PROVIDER.getAddress(), DEPOSIT, 86_400).channelId();
            claim(devnet, consumer, closedTogether, 300_000);
            BigInteger finalAmount = BigInteger.valueOf(500_000);
            devnet.cooperativeClose(consumer, closedTogether, finalAmount,
                    devnet.signCloseAuthorization(PROVIDER, closedTogether, finalAmount));
            String closedAfterExpiry = devnet.open(consumer, PROVIDER.getAddress(), DEPOSIT, 100).channelId();
            claim(devnet, consumer, closedAfterExpiry, 200_000);
            String stillOpen = devnet.open(consumer, PROVIDER.getAddress(), DEPOSIT, 86_400).channelId();
            claim(devnet, consumer, stillOpen, 100_000);
            String expired = devnet.open(consumer, PROVIDER.getAddress(), DEPOSIT, 50).channelId();
            devnet.increaseTime(101);
            devnet.mine();
            devnet.close(consumer, closedAfterExpiry);

            RetryPolicy quick = new RetryPolicy(3, Duration.ofMillis(20), Duration.ofMillis(100), 2.0, 0.5);
            EthApi flaky = new EthApi(new JsonRpcClient(proxy.url(), Duration.ofMillis(400), quick, 4,
                    pause -> Thread.sleep(pause.toMillis())));
            String id = SeparateChain.uniqueId("faulty-rpc");
            ChainListener listener = chain.listener(id, flaky, Finality.depth(0), 3, 2);
            long head = new EthApi(new JsonRpcClient(chain.node.rpcUrl(), Duration.ofSeconds(5), RetryPolicy.defaults()))
                    .blockNumber();
            await("the listener catches up through the faulty proxy").atMost(Duration.ofSeconds(30)).until(() -> {
                try {
                    listener.poll();
                } catch (RpcException transientFault) {
                    // the next poll carries on from the checkpoint
                }
                return store.checkpoint(id).map(c -> c.blockNumber() >= head).orElse(false);
            });

            assertThat(proxy.faults()).isPositive();
            assertThat(listener.stats().rpcFailures()).isPositive();
            // the deployment's FeeUpdated, then each channel's open, claim (fee and claim) and close logs
            assertThat(listener.stats().logsIngested()).isEqualTo(1 + (1 + 2 + 3) + (1 + 2 + 1) + (1 + 2) + 1);

            JsonNode together = ledger.channel(closedTogether);
            assertThat(together.path("status").asText()).isEqualTo("closed");
            assertThat(together.path("closeKind").asText()).isEqualTo("cooperative");
            assertThat(LedgerView.amount(together, "claimed")).isEqualTo(finalAmount);
            assertThat(LedgerView.amount(together, "feesPaid")).isEqualTo(BigInteger.valueOf(6_000 + 4_000));
            assertThat(LedgerView.amount(together, "refund")).isEqualTo(BigInteger.valueOf(500_000));
            assertThat(ledger.eventTypes(closedTogether)).containsExactly("ChannelOpened", "ChannelClaimed",
                    "ChannelClaimed", "ChannelClosed");

            JsonNode afterExpiry = ledger.channel(closedAfterExpiry);
            assertThat(afterExpiry.path("closeKind").asText()).isEqualTo("after_expiry");
            assertThat(LedgerView.amount(afterExpiry, "refund")).isEqualTo(BigInteger.valueOf(800_000));
            assertThat(ledger.eventTypes(closedAfterExpiry)).containsExactly("ChannelOpened", "ChannelClaimed",
                    "ChannelExpired", "ChannelClosed");

            JsonNode open = ledger.channel(stillOpen);
            assertThat(open.path("status").asText()).isEqualTo("open");
            assertThat(LedgerView.amount(open, "claimed")).isEqualTo(devnet.getChannel(stillOpen).claimed());
            assertThat(ledger.eventTypes(stillOpen)).containsExactly("ChannelOpened", "ChannelClaimed");

            assertThat(ledger.eventTypes(expired)).containsExactly("ChannelOpened", "ChannelExpired");
        }
    }

    @Test
    void aNodeRefusingWideLogRangesIsReadInNarrowerOnes() {
        LedgerView ledger = new LedgerView(baseUrl());
        try (SeparateChain chain = new SeparateChain(store, commands, transactions);
             RpcProxy proxy = RpcProxy.failingEveryOther(chain.node.rpcUrl(), Duration.ofMillis(1_200))) {
            proxy.faulty(false);
            proxy.refuseLogRangesAbove(4);
            Credentials consumer = chain.freshConsumer(DEPOSIT.multiply(BigInteger.TEN));
            java.util.List<String> channels = new java.util.ArrayList<>();
            for (int i = 0; i < 5; i++) {
                channels.add(chain.devnet.open(consumer, PROVIDER.getAddress(), DEPOSIT, 86_400).channelId());
                chain.mine(3);
            }
            EthApi viaProxy = new EthApi(new JsonRpcClient(proxy.url(), Duration.ofSeconds(5), RetryPolicy.defaults()));
            ChainListener listener = chain.listener(SeparateChain.uniqueId("narrow-ranges"), viaProxy, Finality.depth(0), 64, 100);

            listener.poll();

            assertThat(proxy.refusedRanges()).isPositive();
            assertThat(listener.stats().rangeShrinks()).isPositive();
            assertThat(listener.stats().checkpointBlock()).isEqualTo(viaProxy.blockNumber());
            channels.forEach(id -> assertThat(ledger.eventTypes(id)).as(id).containsExactly("ChannelOpened"));
        }
    }

    private static void claim(Devnet devnet, Credentials consumer, String channelId, long amount) {
        BigInteger value = BigInteger.valueOf(amount);
        devnet.claim(PROVIDER, channelId, value, BigInteger.ONE, devnet.signVoucher(consumer, channelId, value, BigInteger.ONE));
    }
}
