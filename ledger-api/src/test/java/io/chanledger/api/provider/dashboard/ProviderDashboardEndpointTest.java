package io.chanledger.api.provider.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.provider.gateway.Agent;
import io.chanledger.api.support.AdminReads;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import io.chanledger.api.ledger.wallet.WalletSigning;
import io.chanledger.domain.chain.ChainRef;
import io.chanledger.domain.channel.RecordClaim;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.web3j.utils.Numeric;

/**
 * {@code GET /api/provider/dashboard} of the tests' gateway: its figures move by exactly what paid
 * requests charged and a claim paid out, split by model, and only the provider's own wallet or the
 * admin token reads them. The gateway's figures are shared by every test of the suite, so each
 * assertion is on what this test adds to them.
 */
class ProviderDashboardEndpointTest extends LedgerIntegrationTest {

    private static final String PATH = "/api/provider/dashboard";
    private static final BigInteger DEPOSIT = BigInteger.valueOf(5_000_000);

    @Autowired
    CommandGateway commands;
    @Value("${chan.gateway.provider-key}")
    String providerKey;

    private DigestSigner provider;
    private DigestSigner consumer;

    @BeforeEach
    void wallets() {
        provider = new DigestSigner(Numeric.hexStringToByteArray(providerKey));
        consumer = TestKeys.wallet("dashboard-consumer-" + UUID.randomUUID());
    }

    @Test
    void itCountsPaidRequestsPerModelAndAClaimToTheBaseUnit() {
        JsonNode before = dashboardAsAdmin();
        long now = Instant.now().getEpochSecond();
        String longLived = Channels.open(commands, consumer, provider, DEPOSIT, now + 86_400);
        String expiringSoon = Channels.open(commands, consumer, provider, DEPOSIT, now + 600);

        BigInteger echoOne = pay(longLived, 1, 200_000, "echo-1").add(pay(longLived, 2, 400_000, "echo-1"));
        BigInteger echoFlat = pay(longLived, 3, 600_000, "echo-flat");
        BigInteger atStake = pay(expiringSoon, 1, 200_000, "echo-1");
        echoOne = echoOne.add(atStake);
        BigInteger charged = echoOne.add(echoFlat);
        BigInteger payout = echoOne.subtract(atStake).add(echoFlat);
        BigInteger fee = payout.multiply(BigInteger.valueOf(200)).divide(BigInteger.valueOf(10_000));
        ChainRef claimRef = Channels.nextChainRef();
        commands.sendAndWait(new RecordClaim(longLived, payout, fee, claimRef));

        await("the dashboard to show the claim").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> claimOf(dashboardAsAdmin(), longLived) != null
                        && model(dashboardAsAdmin(), "echo-flat").requests() > model(before, "echo-flat").requests());
        JsonNode after = dashboardAsAdmin();

        JsonNode earnings = after.path("earnings");
        JsonNode earlier = before.path("earnings");
        assertThat(after.path("provider").asText()).isEqualTo(Hex.toChecksumAddress(provider.address()));
        assertThat(amount(earnings, "charged").subtract(amount(earlier, "charged"))).isEqualTo(charged);
        assertThat(amount(earnings, "claimed").subtract(amount(earlier, "claimed"))).isEqualTo(payout);
        assertThat(amount(earnings, "fees").subtract(amount(earlier, "fees"))).isEqualTo(fee);
        assertThat(amount(earnings, "unclaimedCharged").subtract(amount(earlier, "unclaimedCharged")))
                .isEqualTo(charged.subtract(payout));
        assertThat(earnings.path("channels").asLong() - earlier.path("channels").asLong()).isEqualTo(2);

        assertThat(model(after, "echo-1").minus(model(before, "echo-1"))).isEqualTo(new Revenue(echoOne, 3));
        assertThat(model(after, "echo-flat").minus(model(before, "echo-flat"))).isEqualTo(new Revenue(echoFlat, 1));

        JsonNode claim = claimOf(after, longLived);
        assertThat(amount(claim, "payout")).isEqualTo(payout);
        assertThat(amount(claim, "fee")).isEqualTo(fee);
        assertThat(amount(claim, "totalClaimed")).isEqualTo(payout);
        assertThat(claim.path("txHash").asText()).isEqualTo(claimRef.txHash());
        assertThat(claim.path("blockNumber").asLong()).isEqualTo(claimRef.blockNumber());

        JsonNode risky = null;
        for (JsonNode channel : after.path("atRisk")) {
            assertThat(channel.path("channelId").asText()).as("a channel expiring in a day is not at risk")
                    .isNotEqualTo(longLived);
            if (channel.path("channelId").asText().equals(expiringSoon)) {
                risky = channel;
            }
        }
        assertThat(risky).as("the channel expiring in 10 minutes with an unclaimed charge").isNotNull();
        assertThat(amount(risky, "atStake")).isEqualTo(atStake);
        assertThat(risky.path("secondsLeft").asLong()).isBetween(1L, 600L);
        assertThat(risky.path("expiryEpochSeconds").asLong()).isEqualTo(now + 600);
        assertThat(risky.path("consumer").asText()).isEqualTo(Hex.toChecksumAddress(consumer.address()));
        assertThat(risky.path("closing").asBoolean()).isFalse();

        String today = Instant.now().toString().substring(0, 10);
        JsonNode day = after.path("days").get(after.path("days").size() - 1);
        assertThat(day.path("day").asText()).isEqualTo(today);
        assertThat(amount(day, "charged")).isGreaterThanOrEqualTo(charged);
        assertThat(amount(day, "claimed")).isGreaterThanOrEqualTo(payout);
    }

    @Test
    void theProvidersOwnWalletReadsIt() {
        Http.Reply reply = Http.send(WalletSigning.signedGet(baseUrl(), PATH, provider, Instant.now().getEpochSecond()));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.json().path("provider").asText()).isEqualTo(Hex.toChecksumAddress(provider.address()));
        assertThat(reply.raw().headers().firstValue("Cache-Control")).contains("no-store");
    }

    @Test
    void aStrangerWithoutCredentialsIsRefusedAndSeesNothing() {
        Http.Reply reply = Http.get(baseUrl() + PATH);

        assertRefused(reply, 401, "wallet_auth_required");
    }

    @Test
    void anotherWalletIsRefused() {
        DigestSigner stranger = TestKeys.wallet("dashboard-stranger-" + UUID.randomUUID());

        Http.Reply reply = Http.send(WalletSigning.signedGet(baseUrl(), PATH, stranger, Instant.now().getEpochSecond()));

        assertRefused(reply, 403, "wallet_not_provider");
    }

    @Test
    void aWrongAdminTokenIsRefused() {
        Http.Reply reply = Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + PATH)).GET()
                .header("Authorization", "Bearer not-the-token"));

        assertRefused(reply, 401, "admin_unauthorized");
    }

    private static void assertRefused(Http.Reply reply, int status, String code) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(status);
        assertThat(reply.contentType()).startsWith("application/problem+json");
        assertThat(reply.json().path("code").asText()).isEqualTo(code);
        assertThat(reply.body()).doesNotContain("earnings", "charged", "atRisk");
    }

    /** One paid request for {@code model} with voucher {@code nonce} of {@code amount}; answers what it cost. */
    private BigInteger pay(String channelId, long nonce, long amount, String model) {
        Http.Reply reply = Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/v1/chat/completions"))
                .header("Content-Type", "application/json")
                .header("X-CHAN-Voucher", Channels.voucherJson(consumer, channelId, amount, nonce))
                .POST(HttpRequest.BodyPublishers.ofString(Agent.chatBody(model, "what did I earn", 20, false))));
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        BigInteger cost = new BigInteger(reply.raw().headers().firstValue("X-CHAN-Cost").orElseThrow());
        assertThat(cost.signum()).isPositive();
        return cost;
    }

    private JsonNode dashboardAsAdmin() {
        Http.Reply reply = AdminReads.get(baseUrl() + PATH);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.json();
    }

    private static JsonNode claimOf(JsonNode dashboard, String channelId) {
        for (JsonNode claim : dashboard.path("claims")) {
            if (claim.path("channelId").asText().equals(channelId)) {
                return claim;
            }
        }
        return null;
    }

    private record Revenue(BigInteger charged, long requests) {
        Revenue minus(Revenue other) {
            return new Revenue(charged.subtract(other.charged), requests - other.requests);
        }
    }

    private static Revenue model(JsonNode dashboard, String model) {
        Map<String, Revenue> models = new HashMap<>();
        dashboard.path("models").forEach(m -> models.put(m.path("model").asText(),
                new Revenue(amount(m, "charged"), m.path("requests").asLong())));
        return models.getOrDefault(model, new Revenue(BigInteger.ZERO, 0));
    }

    private static BigInteger amount(JsonNode node, String field) {
        return new BigInteger(node.path(field).asText());
    }
}
