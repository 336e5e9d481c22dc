package io.chanledger.api.marketplace.gasstation;

import io.chanledger.testsupport.RpcProxy;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.FIVE_USDC;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.GRANT;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.events;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.faucetWith;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.nonce;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.polBalance;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.properties;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.station;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.walletWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.testsupport.Devnet;
import io.chanledger.projections.gasgrant.GasGrantRow;
import io.chanledger.projections.gasgrant.GasGrantTable;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.health.Status;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.mock.web.MockHttpServletRequest;
import org.web3j.crypto.Credentials;

/**
 * The station with faucets and nodes of its own (an empty faucet, a node behind a proxy that is
 * cut mid-send), recording in the shared ledger, so the shared devnet and faucet stay untouched.
 */
class GasStationFaultsTest extends LedgerIntegrationTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @Autowired
    CommandGateway commands;

    @Autowired
    GasGrantTable table;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    ObjectMapper json;

    private EnabledGasStation stationFor(Credentials faucet, String rpcUrl, Duration receiptTimeout, Duration staleAfter) {
        return station(devnet(), rpcUrl, faucet, properties(receiptTimeout, staleAfter), commands, table);
    }

    @Test
    void anEmptyFaucetAnswersServiceUnavailableAndRecordsNoGrant() {
        Devnet devnet = devnet();
        Credentials faucet = faucetWith(devnet, GRANT);
        String wallet = walletWith(devnet, FIVE_USDC);
        GasStation station = stationFor(faucet, devnet.rpcUrl(), Duration.ofSeconds(5), Duration.ofSeconds(5));
        GasStationProperties settings = properties(Duration.ofSeconds(5), Duration.ofSeconds(5));
        GasStationController controller = new GasStationController(station,
                settings.rateLimit().newLimiter(), json, settings);
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/gas-station");
        request.setRemoteAddr("10.78.0.1");

        ResponseEntity<Map<String, Object>> reply = controller.request(
                ("{\"address\":\"" + wallet + "\"}").getBytes(StandardCharsets.UTF_8), request);

        assertThat(reply.getStatusCode().value()).isEqualTo(503);
        assertThat(reply.getBody()).containsEntry("success", false).containsEntry("code", "faucet_empty");
        assertThat(reply.getHeaders().getFirst("Retry-After")).isEqualTo("2");
        assertThat(events(jdbc, wallet)).isEmpty();
        assertThat(table.find(wallet.toLowerCase())).isEmpty();
        assertThat(polBalance(devnet, wallet)).isZero();
        assertThat(nonce(devnet, faucet.getAddress())).isZero();
        assertThat(new GasStationHealthIndicator(station, Duration.ZERO).health().getStatus()).isEqualTo(Status.DOWN);
        devnet.setBalance(faucet.getAddress(), GRANT.multiply(BigInteger.TWO));
        assertThat(new GasStationHealthIndicator(station, Duration.ZERO).health().getStatus()).isEqualTo(Status.UP);
    }

    @Test
    void anOutageAfterTheBroadcastNeitherPaysTwiceNorBurnsTheGrant() {
        Devnet devnet = devnet();
        Credentials faucet = faucetWith(devnet, Devnet.GAS_MONEY);
        String wallet = walletWith(devnet, FIVE_USDC);
        try (RpcProxy proxy = new RpcProxy(devnet.rpcUrl())) {
            GasStation station = stationFor(faucet, proxy.url(), Duration.ofSeconds(2), Duration.ofMinutes(10));
            proxy.cutAt("eth_sendRawTransaction", RpcProxy.CutAt.AFTER_ANSWER);

            GasStationReply during = station.request(wallet);

            assertThat(during.status().value()).as(during.body().toString()).isEqualTo(503);
            assertThat(during.body()).containsEntry("code", "rpc_unavailable").containsEntry("success", false);
            String txHash = (String) during.body().get("txHash");
            assertThat(txHash).isNotNull();
            assertThat(during.retryAfter()).isNotNull();
            assertThat(proxy.armedRequestsForwarded()).isEqualTo(1);

            proxy.restore();
            GasStationReply after = station.request(wallet);

            assertThat(after.status().value()).as(after.body().toString()).isEqualTo(409);
            assertThat(after.body()).containsEntry("code", "already_granted").containsEntry("txHash", txHash);
            assertThat(nonce(devnet, faucet.getAddress())).isEqualTo(1);
            assertThat(polBalance(devnet, wallet)).isEqualTo(GRANT);
            assertThat(events(jdbc, wallet)).containsExactly("GasGrantReserved", "GasGrantSendStarted",
                    "GasGrantBroadcast", "GasGranted");
        }
    }

    @Test
    void anOutageThatLosesTheBroadcastsAnswerSettlesTheTransferByItsHash() {
        Devnet devnet = devnet();
        Credentials faucet = faucetWith(devnet, Devnet.GAS_MONEY);
        String wallet = walletWith(devnet, FIVE_USDC);
        try (RpcProxy proxy = new RpcProxy(devnet.rpcUrl())) {
            GasStation station = stationFor(faucet, proxy.url(), Duration.ofSeconds(2), Duration.ofMinutes(10));
            proxy.cutAt("eth_sendRawTransaction", RpcProxy.CutAt.AFTER_FORWARD_ANSWER_LOST);

            GasStationReply during = station.request(wallet);

            assertThat(during.status().value()).as(during.body().toString()).isEqualTo(503);
            String txHash = (String) during.body().get("txHash");
            assertThat(txHash).isNotNull();
            assertThat(table.find(wallet.toLowerCase())).hasValueSatisfying(row -> {
                assertThat(row.txHash()).isEqualTo(txHash);
                assertThat(row.status()).isIn(GasGrantRow.Status.BROADCAST, GasGrantRow.Status.GRANTED);
            });

            proxy.restore();
            GasStationReply after = station.request(wallet);

            assertThat(after.body()).containsEntry("code", "already_granted").containsEntry("txHash", txHash);
            assertThat(nonce(devnet, faucet.getAddress())).isEqualTo(1);
            assertThat(polBalance(devnet, wallet)).isEqualTo(GRANT);
        }
    }

    @Test
    void anOutageBeforeTheTransferReachesTheNodeReleasesTheGrantOnceItIsStale() {
        Devnet devnet = devnet();
        Credentials faucet = faucetWith(devnet, Devnet.GAS_MONEY);
        String wallet = walletWith(devnet, FIVE_USDC);
        try (RpcProxy proxy = new RpcProxy(devnet.rpcUrl())) {
            EnabledGasStation station = stationFor(faucet, proxy.url(), Duration.ofSeconds(2), Duration.ofSeconds(8));
            proxy.cutAt("eth_sendRawTransaction", RpcProxy.CutAt.BEFORE_FORWARD);

            GasStationReply during = station.request(wallet);

            assertThat(during.status().value()).as(during.body().toString()).isEqualTo(503);
            assertThat(proxy.armedRequestsForwarded()).isZero();
            proxy.restore();
            GasStationReply pending = station.request(wallet);
            assertThat(pending.body()).containsEntry("code", "grant_pending");

            await().atMost(DEADLINE).pollInterval(Duration.ofMillis(250)).until(() -> {
                station.recovery().resolve(wallet.toLowerCase());
                return table.find(wallet.toLowerCase()).orElseThrow().status() == GasGrantRow.Status.FAILED;
            });
            assertThat(table.find(wallet.toLowerCase()).orElseThrow().failure()).isEqualTo("dropped");
            assertThat(nonce(devnet, faucet.getAddress())).isZero();

            GasStationReply retried = station.request(wallet);

            assertThat(retried.status().value()).as(retried.body().toString()).isEqualTo(200);
            assertThat(nonce(devnet, faucet.getAddress())).isEqualTo(1);
            assertThat(polBalance(devnet, wallet)).isEqualTo(GRANT);
        }
    }
}
