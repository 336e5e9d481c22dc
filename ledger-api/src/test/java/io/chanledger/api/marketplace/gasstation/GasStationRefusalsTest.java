package io.chanledger.api.marketplace.gasstation;

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

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.DevnetAccounts;
import io.chanledger.projections.gasgrant.GasGrantTable;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.web3j.crypto.Credentials;

/**
 * What the gas station refuses before it sends anything: addresses that hold contract code (the
 * channel contract and USDC among them, which hold USDC but refuse POL), wallets a transfer would
 * fail for, and grants beyond the budget of all of them. Each
 * refusal is checked on the chain: the faucet's nonce does not move and no POL arrives.
 */
class GasStationRefusalsTest extends LedgerIntegrationTest {

    private static final String FAUCET = DevnetAccounts.anvil(9).getAddress();
    private static final AtomicInteger CLIENTS = new AtomicInteger();

    @Autowired
    CommandGateway commands;
    @Autowired
    GasGrantTable table;
    @Autowired
    JdbcTemplate jdbc;

    private Http.Reply ask(String address) {
        int n = CLIENTS.incrementAndGet();
        return Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/gas-station"))
                .header("Content-Type", "application/json")
                .header("X-Forwarded-For", "10.79." + (n / 250) + "." + (1 + n % 250))
                .POST(HttpRequest.BodyPublishers.ofString("{\"address\":\"" + address + "\"}")));
    }

    private static void assertRefused(Http.Reply reply, int status, String code) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(status);
        assertThat(reply.contentType()).startsWith("application/json");
        JsonNode body = reply.json();
        assertThat(body.path("success").isBoolean()).isTrue();
        assertThat(body.path("success").booleanValue()).isFalse();
        assertThat(body.path("code").asText()).isEqualTo(code);
        assertThat(body.path("error").asText()).isNotBlank();
        assertThat(body.has("txHash")).isFalse();
    }

    @Test
    void theChannelContractAndUsdcHoldingFiveUsdcAreRefusedAndNothingIsSent() {
        Devnet devnet = devnet();
        for (String contract : new String[] {devnet.channelAddress(), devnet.usdcAddress()}) {
            devnet.mint(contract, FIVE_USDC);
            long faucetNonce = nonce(devnet, FAUCET);
            BigInteger pol = polBalance(devnet, contract);

            Http.Reply reply = ask(contract);

            assertRefused(reply, 422, "not_a_wallet");
            assertThat(nonce(devnet, FAUCET)).as("no transaction from the faucet").isEqualTo(faucetNonce);
            assertThat(polBalance(devnet, contract)).isEqualTo(pol);
            assertThat(events(jdbc, contract)).as("nothing recorded").isEmpty();
            assertThat(table.find(contract.toLowerCase())).isEmpty();
        }
    }

    /**
     * An externally owned account delegated (EIP-7702) to code that refuses POL holds no contract of
     * its own, so it is judged by the simulated transfer, which fails.
     */
    @Test
    void aWalletWhoseTransferWouldRevertIsRefusedAndNothingIsSent() {
        Devnet devnet = devnet();
        String wallet = walletWith(devnet, FIVE_USDC);
        devnet.rpc().raw("anvil_setCode", wallet, "0xef0100" + devnet.channelAddress().substring(2).toLowerCase());
        long faucetNonce = nonce(devnet, FAUCET);

        Http.Reply reply = ask(wallet);

        assertRefused(reply, 422, "transfer_would_fail");
        assertThat(nonce(devnet, FAUCET)).isEqualTo(faucetNonce);
        assertThat(polBalance(devnet, wallet)).isZero();
        assertThat(events(jdbc, wallet)).isEmpty();
    }

    @Test
    void freshWalletsAreStillGrantedAndTheBudgetOfAllGrantsStopsTheNextOne() {
        Devnet devnet = devnet();
        Credentials faucet = faucetWith(devnet, Devnet.GAS_MONEY);
        EnabledGasStation station = station(devnet, devnet.rpcUrl(), faucet,
                properties(Duration.ofSeconds(10), Duration.ofMinutes(10),
                        new GasStationProperties.Grants(2, Duration.ofHours(1))), commands, table);
        String first = walletWith(devnet, FIVE_USDC);
        String second = walletWith(devnet, FIVE_USDC);
        String third = walletWith(devnet, FIVE_USDC);

        assertThat(station.request(first).body()).as("a fresh wallet with 5 USDC").containsEntry("success", true);
        assertThat(station.request(second).body()).containsEntry("success", true);
        GasStationReply refused = station.request(third);

        assertThat(refused.status().value()).as(refused.body().toString()).isEqualTo(503);
        assertThat(refused.body()).containsEntry("success", false).containsEntry("code", "grant_limit_reached");
        assertThat(refused.retryAfter()).isPositive();
        assertThat(nonce(devnet, faucet.getAddress())).as("two transfers, not three").isEqualTo(2);
        assertThat(polBalance(devnet, first)).isEqualTo(GRANT);
        assertThat(polBalance(devnet, second)).isEqualTo(GRANT);
        assertThat(polBalance(devnet, third)).isZero();
        assertThat(events(jdbc, third)).isEmpty();
    }
}
