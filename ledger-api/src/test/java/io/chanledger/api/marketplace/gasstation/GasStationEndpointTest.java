package io.chanledger.api.marketplace.gasstation;

import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.FIVE_USDC;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.GRANT;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.events;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.nonce;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.polBalance;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.walletWith;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.AdminReads;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.testsupport.DevnetAccounts;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.projections.gasgrant.GasGrantRow;
import io.chanledger.projections.gasgrant.GasGrantTable;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.web3j.protocol.core.methods.response.Transaction;

class GasStationEndpointTest extends LedgerIntegrationTest {

    private static final String FAUCET = DevnetAccounts.anvil(9).getAddress();

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    GasGrantTable table;

    @Autowired
    GasStation station;

    @Autowired
    GasStationHealthIndicator health;

    private static final AtomicInteger CLIENTS = new AtomicInteger();

    /** Each request a test makes comes from a client of its own, except where the rate limit is the point. */
    private static String newClient() {
        int n = CLIENTS.incrementAndGet();
        return "10.77." + (n / 250) + "." + (1 + n % 250);
    }

    private final String client = newClient();

    private Http.Reply ask(String body) {
        return ask(client, body);
    }

    private Http.Reply ask(String clientAddress, String body) {
        return Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/gas-station"))
                .header("Content-Type", "application/json")
                .header("X-Forwarded-For", "203.0.113.9, " + clientAddress)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static String addressBody(String address) {
        return "{\"address\":\"" + address + "\"}";
    }

    private static void assertRefusal(Http.Reply reply, int status, String code) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(status);
        assertThat(reply.contentType()).startsWith("application/json");
        JsonNode body = reply.json();
        assertThat(body.path("success").isBoolean()).isTrue();
        assertThat(body.path("success").booleanValue()).isFalse();
        assertThat(body.path("code").asText()).isEqualTo(code);
        assertThat(body.path("error").asText()).isNotBlank();
        assertThat(reply.body()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void theStationPaysFromAnvilAccountNine() {
        assertThat(station).isInstanceOfSatisfying(EnabledGasStation.class,
                enabled -> assertThat(enabled.faucet()).isEqualTo(FAUCET));
        assertThat(health.health().getDetails()).containsEntry("faucet", Hex.toChecksumAddress(FAUCET));
    }

    @Test
    void aWalletWithFiveUsdcGetsItsGrantAndThePolArrives() throws Exception {
        String wallet = walletWith(devnet(), FIVE_USDC);
        long faucetNonce = nonce(devnet(), FAUCET);

        Http.Reply reply = ask(addressBody(Hex.toChecksumAddress(wallet)));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonNode body = reply.json();
        assertThat(body.path("success").booleanValue()).isTrue();
        assertThat(body.path("amount").asText()).isEqualTo(GRANT.toString());
        assertThat(body.path("address").asText()).isEqualTo(Hex.toChecksumAddress(wallet));
        String txHash = body.path("txHash").asText();
        assertThat(Hex.isBytes32(txHash)).isTrue();
        assertThat(polBalance(devnet(), wallet)).isEqualTo(GRANT);
        assertThat(nonce(devnet(), FAUCET)).isEqualTo(faucetNonce + 1);
        Transaction transfer = devnet().web3j().ethGetTransactionByHash(txHash).send().getTransaction().orElseThrow();
        assertThat(transfer.getFrom()).isEqualToIgnoringCase(FAUCET);
        assertThat(transfer.getTo()).isEqualToIgnoringCase(wallet);
        assertThat(transfer.getValue()).isEqualTo(GRANT);
        assertThat(transfer.getType()).isEqualTo("0x2");
        assertThat(events(jdbc, wallet)).containsExactly("GasGrantReserved", "GasGrantSendStarted", "GasGrantBroadcast",
                "GasGranted");
        assertThat(table.find(wallet.toLowerCase())).hasValueSatisfying(row -> {
            assertThat(row.status()).isEqualTo(GasGrantRow.Status.GRANTED);
            assertThat(row.txHash()).isEqualTo(txHash);
            assertThat(row.faucetNonce()).isEqualTo(faucetNonce);
        });
    }

    @Test
    void aSecondRequestIsRefusedWithTheFirstTransaction() {
        String wallet = walletWith(devnet(), FIVE_USDC.multiply(BigInteger.TEN));
        String first = ask(addressBody(wallet)).json().path("txHash").asText();
        long faucetNonce = nonce(devnet(), FAUCET);

        Http.Reply again = ask(addressBody(Hex.toChecksumAddress(wallet)));

        assertRefusal(again, 409, "already_granted");
        assertThat(again.json().path("txHash").asText()).isEqualTo(first);
        assertThat(nonce(devnet(), FAUCET)).isEqualTo(faucetNonce);
        assertThat(polBalance(devnet(), wallet)).isEqualTo(GRANT);
    }

    @Test
    void twentyConcurrentRequestsForOneWalletMakeExactlyOneTransfer() throws Exception {
        String wallet = walletWith(devnet(), FIVE_USDC);
        long faucetNonce = nonce(devnet(), FAUCET);
        int requests = 20;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Http.Reply>> replies = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(requests)) {
            for (int i = 0; i < requests; i++) {
                String clientAddress = newClient();
                Callable<Http.Reply> request = () -> {
                    start.await();
                    return ask(clientAddress, addressBody(wallet));
                };
                replies.add(pool.submit(request));
            }
            start.countDown();
        }
        List<Http.Reply> answered = new ArrayList<>();
        for (Future<Http.Reply> reply : replies) {
            answered.add(reply.get());
        }

        Map<Integer, List<Http.Reply>> byStatus = answered.stream().collect(Collectors.groupingBy(Http.Reply::status));
        assertThat(byStatus.keySet()).as(answered.stream().map(Http.Reply::body).toList().toString())
                .containsExactlyInAnyOrder(200, 409);
        assertThat(byStatus.get(200)).hasSize(1);
        String txHash = byStatus.get(200).getFirst().json().path("txHash").asText();
        assertThat(byStatus.get(409)).allSatisfy(reply -> assertThat(reply.json().path("code").asText())
                .isIn("already_granted", "grant_pending"));
        assertThat(byStatus.get(409)).filteredOn(reply -> reply.json().path("code").asText().equals("already_granted"))
                .allSatisfy(reply -> assertThat(reply.json().path("txHash").asText()).isEqualTo(txHash));
        assertThat(nonce(devnet(), FAUCET)).isEqualTo(faucetNonce + 1);
        assertThat(polBalance(devnet(), wallet)).isEqualTo(GRANT);
        assertThat(events(jdbc, wallet)).filteredOn("GasGranted"::equals).hasSize(1);
        assertThat(events(jdbc, wallet)).filteredOn("GasGrantReserved"::equals).hasSize(1);
    }

    @Test
    void aWalletJustBelowFiveUsdcIsRefusedWithWhatItHoldsAndTheMinimum() {
        String wallet = walletWith(devnet(), BigInteger.valueOf(4_999_999));
        long faucetNonce = nonce(devnet(), FAUCET);

        Http.Reply reply = ask(addressBody(wallet));

        assertRefusal(reply, 422, "insufficient_usdc");
        assertThat(reply.json().path("balance").asText()).isEqualTo("4999999");
        assertThat(reply.json().path("minimum").asText()).isEqualTo("5000000");
        assertThat(nonce(devnet(), FAUCET)).isEqualTo(faucetNonce);
        assertThat(events(jdbc, wallet)).isEmpty();
        assertThat(table.find(wallet.toLowerCase())).isEmpty();
    }

    @Test
    void malformedBodiesAreCleanBadRequests() {
        String[] bodies = {"", "not json", "[]", "\"0xabc\"", "{}", "{\"address\":null}", "{\"address\":42}",
                "{\"address\":[\"0x5315f457a01c71a5d7ee87da126af57e8cdeda47\"]}",
                "{\"address\":\"0x5315f457a01c71a5d7ee87da126af57e8cdeda47\"} trailing", "{\"address\":"};
        for (String body : bodies) {
            assertRefusal(ask(newClient(), body), 400, "malformed_body");
        }
    }

    @Test
    void malformedAddressesAreCleanBadRequests() {
        Function<String, String> checksumBroken = address -> {
            String checksummed = Hex.toChecksumAddress(address);
            int letter = 2;
            while (!Character.isLetter(checksummed.charAt(letter))) {
                letter++;
            }
            char c = checksummed.charAt(letter);
            char flipped = Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c);
            return checksummed.substring(0, letter) + flipped + checksummed.substring(letter + 1);
        };
        String wallet = "0x5315f457a01c71a5d7ee87da126af57e8cdeda47";
        String[] addresses = {"", "0x", "5315f457a01c71a5d7ee87da126af57e8cdeda47", "0x5315f457a01c71a5d7ee87da126af57e8cdeda4",
                "0x5315f457a01c71a5d7ee87da126af57e8cdeda477", "0x5315f457a01c71a5d7ee87da126af57e8cdedazz",
                " " + wallet, wallet + " ", "0X5315f457a01c71a5d7ee87da126af57e8cdeda47", checksumBroken.apply(wallet),
                "0x" + "\u0661".repeat(40)};
        for (String address : addresses) {
            Http.Reply reply = ask(newClient(), addressBody(address));
            assertRefusal(reply, 400, "invalid_address");
        }
        assertThat(events(jdbc, wallet)).isEmpty();
    }

    @Test
    void theFaucetDoesNotPayItself() {
        long faucetNonce = nonce(devnet(), FAUCET);

        assertRefusal(ask(addressBody(Hex.toChecksumAddress(FAUCET))), 400, "invalid_address");

        assertThat(nonce(devnet(), FAUCET)).isEqualTo(faucetNonce);
        assertThat(events(jdbc, FAUCET)).isEmpty();
    }

    @Test
    void aClientAskingTooOftenIsRateLimitedWithRetryAfter() {
        for (int i = 0; i < 3; i++) {
            assertRefusal(ask("{}"), 400, "malformed_body");
        }

        Http.Reply limited = ask(addressBody("0x5315f457a01c71a5d7ee87da126af57e8cdeda47"));

        assertRefusal(limited, 429, "rate_limited");
        long retryAfter = Long.parseLong(limited.raw().headers().firstValue("Retry-After").orElseThrow());
        assertThat(retryAfter).isBetween(1L, 600L);
        assertRefusal(ask(newClient(), "{}"), 400, "malformed_body");
    }

    @Test
    void grantsAndRefusalsAreCountedAndTheFaucetBalanceIsAGauge() {
        double grants = meter("chan.gasstation.grants", "confirmedBy:request");
        double refusals = meter("chan.gasstation.refusals", "reason:insufficient_usdc");

        ask(addressBody(walletWith(devnet(), FIVE_USDC)));
        ask(newClient(), addressBody(walletWith(devnet(), BigInteger.ONE)));

        assertThat(meter("chan.gasstation.grants", "confirmedBy:request")).isEqualTo(grants + 1);
        assertThat(meter("chan.gasstation.refusals", "reason:insufficient_usdc")).isEqualTo(refusals + 1);
        assertThat(meter("chan.gasstation.faucet.balance", null)).isGreaterThan(1.0);
        assertThat(Http.get(baseUrl() + "/actuator/health").json().path("components").path("gasStation")
                .path("status").asText()).isEqualTo("UP");
        Map<String, Object> details = health.health().getDetails();
        assertThat(new BigInteger((String) details.get("balanceWei")))
                .isGreaterThan(new BigInteger((String) details.get("requiredWei")));
    }

    /** A meter's value (a counter's count, a gauge's value); zero for a counter not registered yet. */
    private double meter(String name, String tag) {
        Http.Reply reply = AdminReads.get(baseUrl() + "/actuator/metrics/" + name + (tag == null ? "" : "?tag=" + tag));
        if (reply.status() == 404) {
            return 0;
        }
        return reply.json().path("measurements").get(0).path("value").asDouble();
    }
}
