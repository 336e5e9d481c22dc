package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Reports that prove a paying relationship: feedback and telemetry signed by a wallet that has a
 * channel with the provider reported on (opened on the devnet, followed by the chain listener)
 * are verified and move the provider's quality score, each wallet once and within the weight of
 * its signal; the same reports unsigned, signed by a wallet without such a channel, or badly
 * signed do not.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VerifiedReportsTest extends LedgerIntegrationTest {

    @Autowired
    JdbcTemplate jdbc;

    private MarketplaceFixture fixture;
    private MarketplaceFixture.Registered paid;
    private MarketplaceFixture.Registered other;
    private PayingAgent agent;

    @BeforeAll
    void openAChannelWithAProvider() {
        fixture = new MarketplaceFixture(baseUrl());
        paid = fixture.register(b -> { }, "paid", null);
        other = fixture.register(b -> { }, "other", null);
        fixture.approve(paid);
        fixture.approve(other);
        agent = PayingAgent.create();
        agent.openChannelWith(devnet(), paid.wallet().address());
        await("the listener to record the channel").atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject(
                "SELECT COUNT(*) FROM channel_balance WHERE consumer = ? AND provider = ?", Long.class,
                agent.address(), paid.wallet().address()) == 1);
    }

    @AfterAll
    void stopProviders() {
        fixture.close();
    }

    private static String request(String providerId, int status) {
        return "{\"providerId\":\"" + providerId + "\",\"latencyMs\":900,\"httpStatus\":" + status
                + ",\"costUsdc\":\"0.01\",\"protocol\":\"chan\",\"agentId\":\"agent-" + UUID.randomUUID() + "\"}";
    }

    private static String failure(String providerId) {
        return "{\"providerId\":\"" + providerId + "\",\"outcome\":\"failure\",\"reason\":\"quality\"}";
    }

    private JsonNode scoredEntry(MarketplaceFixture.Registered provider) {
        fixture.awaitEntry(provider, e -> e.path("qualityScore").isNumber());
        return fixture.directoryEntry(provider.id());
    }

    @Test
    void reportsSignedByAWalletWithAChannelWithTheProviderAreVerifiedAndMoveItsScoreWithinTheirWeight() {
        assertThat(scoredEntry(paid).path("qualityScore").decimalValue()).as("its health checks alone")
                .isEqualByComparingTo("1");

        Http.Reply telemetry = agent.post(baseUrl(), "/api/telemetry",
                "[" + request(paid.id(), 502) + "," + request(paid.id(), 0) + "]");

        assertThat(telemetry.status()).as(telemetry.body()).isEqualTo(202);
        assertThat(telemetry.json().path("recorded").asInt()).isEqualTo(2);
        assertThat(telemetry.json().path("verified").asInt()).isEqualTo(2);
        fixture.awaitEntry(paid, e -> e.path("telemetry").path("requests").asLong() == 2);
        JsonNode entry = fixture.directoryEntry(paid.id());
        JsonNode verified = entry.path("telemetry");
        assertThat(verified.path("wallets").asLong()).isEqualTo(1);
        assertThat(verified.path("failures").asLong()).isEqualTo(2);
        assertThat(verified.path("failuresByStatus").toString()).isEqualTo("{\"502\":1}");
        assertThat(verified.path("failuresWithoutStatus").asLong()).as("httpStatus 0: no HTTP answer").isEqualTo(1);
        assertThat(verified.path("unverified").path("requests").asLong()).isZero();
        // health 1 (0.40), probe latency 1 (0.10), the wallet's requests 0 of 2 answered (0.25): 0.50 / 0.75
        assertThat(entry.path("qualityScore").decimalValue()).isEqualByComparingTo("0.6667");

        Http.Reply feedback = agent.post(baseUrl(), "/api/feedback", failure(paid.id()));

        assertThat(feedback.status()).as(feedback.body()).isEqualTo(202);
        assertThat(feedback.json().path("recorded").asBoolean()).isTrue();
        assertThat(feedback.json().path("verified").asBoolean()).isTrue();
        fixture.awaitEntry(paid, e -> e.path("feedback").path("wallets").asLong() == 1);
        entry = fixture.directoryEntry(paid.id());
        assertThat(entry.path("feedback").path("failures").asLong()).isEqualTo(1);
        // its feedback 0 (0.25) too: 0.50 / 1, the least a provider whose every check passed can score
        assertThat(entry.path("qualityScore").decimalValue()).isEqualByComparingTo("0.5");

        for (int i = 0; i < 3; i++) {
            assertThat(agent.post(baseUrl(), "/api/feedback", failure(paid.id())).status()).isEqualTo(202);
        }
        fixture.awaitEntry(paid, e -> e.path("feedback").path("failures").asLong() == 4);
        assertThat(fixture.directoryEntry(paid.id()).path("qualityScore").decimalValue())
                .as("one wallet is one vote, however many reports it sends").isEqualByComparingTo("0.5");
    }

    @Test
    void aSignedReportOnAProviderTheWalletHasNoChannelWithIsUnverified() {
        String score = scoredEntry(other).path("qualityScore").decimalValue().toPlainString();

        Http.Reply telemetry = agent.post(baseUrl(), "/api/telemetry", request(other.id(), 500));
        Http.Reply feedback = agent.post(baseUrl(), "/api/feedback", failure(other.id()));

        assertThat(telemetry.status()).isEqualTo(202);
        assertThat(telemetry.json().path("recorded").asInt()).isEqualTo(1);
        assertThat(telemetry.json().path("verified").asInt()).isZero();
        assertThat(feedback.json().path("verified").asBoolean()).isFalse();
        fixture.awaitEntry(other, e -> e.path("telemetry").path("unverified").path("requests").asLong() == 1
                && e.path("feedback").path("unverified").path("failures").asLong() == 1);
        JsonNode entry = fixture.directoryEntry(other.id());
        assertThat(entry.path("telemetry").path("requests").asLong()).isZero();
        assertThat(entry.path("feedback").path("wallets").asLong()).isZero();
        assertThat(entry.path("qualityScore").decimalValue()).isEqualByComparingTo(score);
    }

    @Test
    void aReportWhoseSignatureIsNotTheWalletsIsRefusedAndRecordsNothing() {
        Http.Reply forged = agent.post(TestKeys.wallet("someone-else-" + UUID.randomUUID()), baseUrl(),
                "/api/feedback", failure(paid.id()));

        Reports.assertRefused(forged, 401, "wallet_auth_wrong_signer");
        Reports.assertRefused(agent.post(TestKeys.wallet("someone-else-" + UUID.randomUUID()), baseUrl(),
                "/api/telemetry", request(paid.id(), 500)), 401, "wallet_auth_wrong_signer");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM marketplace_feedback WHERE provider_id = ? "
                + "AND wallet IS NULL", Long.class, paid.id())).isZero();
    }
}
