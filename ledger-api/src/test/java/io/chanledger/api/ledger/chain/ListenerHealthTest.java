package io.chanledger.api.ledger.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.AdminReads;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.chain.ingest.BatchCommitter;
import io.chanledger.chain.ingest.ChainListener;
import io.chanledger.chain.ingest.Finality;
import io.chanledger.chain.ingest.ListenerHaltedException;
import io.chanledger.chain.ingest.ListenerSettings;
import io.chanledger.chain.ingest.ListenerStats;
import io.chanledger.chain.ingest.ListenerStore;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.chain.rpc.RetryPolicy;
import io.chanledger.chain.rpc.RpcException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.common.transaction.TransactionManager;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.health.Status;

class ListenerHealthTest extends LedgerIntegrationTest {

    @Autowired
    EthApi chainNode;
    @Autowired
    ListenerStore store;
    @Autowired
    CommandGateway commands;
    @Autowired
    TransactionManager transactions;

    private ChainListener listener(String id, long chainId, EthApi eth) {
        return listener(id, chainId, devnet().channelAddress(), eth);
    }

    private ChainListener listener(String id, long chainId, String contract, EthApi eth) {
        ListenerSettings settings = new ListenerSettings(id, chainId, contract, Finality.depth(0), 100, 0, 100);
        return new ChainListener(settings, eth, store, new BatchCommitter(commands, transactions, store,
                BatchCommitter.Probe.NONE));
    }

    @Test
    void refusesToFollowANodeOfAnotherChain() {
        String id = SeparateChain.uniqueId("amoy");
        ChainListener listener = listener(id, 80_002, chainNode);

        assertThatThrownBy(listener::poll).isInstanceOfSatisfying(ListenerHaltedException.class,
                halted -> assertThat(halted.reason()).isEqualTo(ListenerStats.HaltReason.CHAIN_ID_MISMATCH));
        assertThat(listener.stats().haltDetail()).contains("chain 137").contains("chain 80002");
        assertThat(store.checkpoint(id)).isEmpty();
        assertThat(new ListenerHealthIndicator(listener, 5, Duration.ofMinutes(2)).health().getStatus()).isEqualTo(Status.DOWN);
    }

    @Test
    void refusesToFollowAContractOfAnotherSigningDomain() {
        // the devnet's USDC has a domain of its own (USD Coin, 2) for EIP-3009 authorizations
        String id = SeparateChain.uniqueId("not-a-channel-contract");
        ChainListener listener = listener(id, 137, devnet().usdcAddress(), chainNode);

        assertThatThrownBy(listener::poll).isInstanceOfSatisfying(ListenerHaltedException.class,
                halted -> assertThat(halted.reason()).isEqualTo(ListenerStats.HaltReason.SIGNING_DOMAIN_MISMATCH));
        assertThat(listener.stats().haltDetail()).contains(devnet().usdcAddress())
                .contains("checks signatures under domain separator");
        assertThat(store.checkpoint(id)).isEmpty();
        assertThat(new ListenerHealthIndicator(listener, 5, Duration.ofMinutes(2)).health().getStatus()).isEqualTo(Status.DOWN);
    }

    @Test
    void turnsDownAfterTheConfiguredNumberOfFailedPollsInARow() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        EthApi unreachable = new EthApi(new JsonRpcClient("http://127.0.0.1:" + closedPort, Duration.ofSeconds(1),
                RetryPolicy.none()));
        ChainListener listener = listener(SeparateChain.uniqueId("unreachable"), 137, unreachable);
        ListenerHealthIndicator health = new ListenerHealthIndicator(listener, 3, Duration.ofMinutes(2));

        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(listener::poll).isInstanceOf(RpcException.class);
        }
        assertThat(health.health().getStatus()).isNotEqualTo(Status.DOWN);
        assertThatThrownBy(listener::poll).isInstanceOf(RpcException.class);

        assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.health().getDetails()).containsEntry("reason", "RPC_FAILURES").containsEntry("consecutiveFailures", 3L);
        assertThat(listener.stats().rpcFailures()).isEqualTo(3);
    }

    @Test
    void theApplicationsListenerReportsItsHealthAndMeters() {
        long head = chainNode.blockNumber();
        String metrics = await("the listener's checkpoint reaches block " + head).atMost(Duration.ofSeconds(30))
                .until(() -> AdminReads.get(baseUrl() + "/actuator/prometheus").body(),
                        text -> text != null && gauge(text, "chan_listener_checkpoint_block") >= head);

        assertThat(gauge(metrics, "chan_listener_lag_blocks")).isGreaterThanOrEqualTo(0);
        assertThat(gauge(metrics, "chan_listener_halted")).isZero();
        assertThat(metrics).contains("chan_listener_rpc_failures_total", "chan_listener_unknown_topics_total",
                "chan_listener_logs_ingested_total", "chan_listener_polls_total", "chan_listener_finalized_block",
                "chan_listener_head_block", "chan_listener_behind_blocks", "chan_listener_behind_seconds");
        JsonNode component = Http.get(baseUrl() + "/actuator/health").json().path("components").path("chainListener");
        assertThat(component.path("status").asText()).isEqualTo("UP");
    }

    /** In depth mode, depth 0, the listener reads up to the head: it follows the chain, never behind it for long. */
    @Test
    void aListenerFollowingTheHeadShowsItsLagAndStaysUp() {
        long head = chainNode.blockNumber();
        JsonNode listener = await("the listener's checkpoint reaches block " + head).atMost(Duration.ofSeconds(30))
                .until(() -> AdminReads.get(baseUrl() + "/api/admin/health").json().path("components")
                        .path("chainListener"), part -> part.path("details").path("checkpointBlock").asLong() >= head);

        assertThat(listener.path("status").asText()).isEqualTo("UP");
        JsonNode details = listener.path("details");
        assertThat(details.path("headBlock").asLong()).isGreaterThanOrEqualTo(head);
        assertThat(details.has("reason")).isFalse();
        assertThat(details.path("blocksBehind").asLong()).isLessThanOrEqualTo(details.path("headBlock").asLong() - head);
        assertThat(details.path("secondsBehind").asLong()).isNotNegative();
        JsonNode shown = AdminReads.get(baseUrl() + "/api/provider/dashboard").json().path("listener");
        assertThat(shown.path("status").asText()).isEqualTo("UP");
        assertThat(shown.path("checkpointBlock").asLong()).isGreaterThanOrEqualTo(head);
        assertThat(shown.has("reason")).isFalse();
    }

    /** The value of a gauge without tags in Prometheus text, or -1 when absent. */
    private static double gauge(String metrics, String name) {
        return metrics.lines().filter(line -> line.startsWith(name + " ")).findFirst()
                .map(line -> Double.parseDouble(line.substring(name.length() + 1).trim())).orElse(-1.0);
    }
}
