package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A flood of anonymous reports, as anyone can send them: telemetry and feedback of failures with
 * invented agent ids, from one address and from addresses in many networks (IPv4 /24s and IPv6
 * /48s, through the tests' X-Forwarded-For). It moves no quality score, its weight in the
 * unverified counts shown apart is bounded per source network and per provider, and it crowds
 * out no other provider's reports nor those of a wallet that pays the flooded provider.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AnonymousFloodTest extends LedgerIntegrationTest {

    /** The test profile's telemetry.reports-per-source and report-sources-per-provider. */
    private static final int PER_NETWORK = 3;
    private static final int NETWORKS_PER_PROVIDER = 20;

    @Autowired
    JdbcTemplate jdbc;

    private MarketplaceFixture fixture;
    private MarketplaceFixture.Registered flooded;
    private MarketplaceFixture.Registered neighbour;
    private PayingAgent payer;

    @BeforeAll
    void registerProviders() {
        fixture = new MarketplaceFixture(baseUrl());
        flooded = fixture.register(b -> { }, "flooded", null);
        neighbour = fixture.register(b -> { }, "neighbour", null);
        fixture.approve(flooded);
        fixture.approve(neighbour);
        payer = PayingAgent.create();
        payer.openChannelWith(devnet(), flooded.wallet().address());
        await("the listener to record the channel").atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject(
                "SELECT COUNT(*) FROM channel_balance WHERE consumer = ?", Long.class, payer.address()) == 1);
    }

    @AfterAll
    void stopProviders() {
        fixture.close();
    }

    /** A hundred failed requests, each with an agent id of its own. */
    private static String hundredFailures(String providerId) {
        List<String> reports = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            reports.add("{\"providerId\":\"" + providerId + "\",\"latencyMs\":30000,\"httpStatus\":" + (i % 2 == 0
                    ? 502 : 0) + ",\"costUsdc\":\"0\",\"protocol\":\"chan\",\"agentId\":\"" + UUID.randomUUID() + "\"}");
        }
        return "[" + String.join(",", reports) + "]";
    }

    private static String failure(String providerId) {
        return "{\"providerId\":\"" + providerId + "\",\"outcome\":\"failure\",\"reason\":\"error\","
                + "\"protocol\":\"chan\"}";
    }

    private void flood(String address, int posts) {
        for (int i = 0; i < posts; i++) {
            assertThat(Reports.post(baseUrl() + "/api/telemetry", address, "application/json",
                    hundredFailures(flooded.id())).status()).isEqualTo(202);
            assertThat(Reports.post(baseUrl() + "/api/feedback", address, "application/json", failure(flooded.id()))
                    .status()).isEqualTo(202);
        }
    }

    private BigDecimal score(MarketplaceFixture.Registered provider) {
        fixture.awaitEntry(provider, e -> e.path("qualityScore").isNumber());
        return fixture.directoryEntry(provider.id()).path("qualityScore").decimalValue();
    }

    @Test
    void aFloodOfAnonymousReportsMovesNoScoreAndCrowdsOutNothing() {
        BigDecimal before = score(flooded);

        flood("192.0.2.77", 5);
        for (int i = 0; i < 15; i++) {
            flood("198.51." + i + ".9", 1);
        }
        for (int i = 0; i < 15; i++) {
            flood("2001:db8:" + Integer.toHexString(i + 1) + "::" + Integer.toHexString(i + 7), 1);
        }
        for (int i = 1; i <= 8; i++) {
            flood("203.0.113." + i, 1);
        }

        // 1 + 15 + 4 networks fill the provider's table of 20; each counted 3 requests, feedback up to 5
        int networks = NETWORKS_PER_PROVIDER;
        fixture.awaitEntry(flooded, e -> e.path("telemetry").path("unverified").path("requests").asLong()
                == (long) networks * PER_NETWORK);
        JsonNode entry = fixture.directoryEntry(flooded.id());
        JsonNode unverified = entry.path("telemetry").path("unverified");
        assertThat(unverified.path("failures").asLong()).isEqualTo((long) networks * PER_NETWORK);
        assertThat(unverified.path("failuresWithoutStatus").asLong()).as("httpStatus 0, the second of each network's 3")
                .isEqualTo(networks);
        assertThat(entry.path("telemetry").path("requests").asLong()).as("nothing verified").isZero();
        fixture.awaitEntry(flooded, e -> e.path("feedback").path("unverified").path("failures").asLong()
                == 5 + (networks - 1));
        assertThat(entry.path("feedback").path("reports").asLong()).isZero();
        assertThat(fixture.directoryEntry(flooded.id()).path("qualityScore").decimalValue())
                .as("no anonymous report counts in the score").isEqualByComparingTo(before);

        Http.Reply late = Reports.post(baseUrl() + "/api/telemetry", "2001:db8:ffff::1", "application/json",
                hundredFailures(flooded.id()));
        assertThat(late.json().path("recorded").asInt()).as("the flooded provider's table is full").isZero();
        Http.Reply elsewhere = Reports.post(baseUrl() + "/api/telemetry", "2001:db8:ffff::1", "application/json",
                "{\"providerId\":\"" + neighbour.id() + "\",\"latencyMs\":80,\"httpStatus\":200,\"costUsdc\":\"0.01\"}");
        assertThat(elsewhere.status()).isEqualTo(202);
        assertThat(elsewhere.json().path("recorded").asInt()).as("another provider's reports still count")
                .isEqualTo(1);
        Http.Reply feedbackElsewhere = Reports.post(baseUrl() + "/api/feedback", "2001:db8:ffff::1",
                "application/json", "{\"providerId\":\"" + neighbour.id() + "\",\"outcome\":\"success\"}");
        assertThat(feedbackElsewhere.json().path("recorded").asBoolean()).isTrue();
        fixture.awaitEntry(neighbour, e -> e.path("telemetry").path("unverified").path("requests").asLong() == 1);

        Http.Reply paying = payer.post(baseUrl(), "/api/telemetry", "{\"providerId\":\"" + flooded.id()
                + "\",\"latencyMs\":80,\"httpStatus\":200,\"costUsdc\":\"0.01\"}");
        assertThat(paying.json().path("verified").asInt()).as("no number of networks crowds out a paying wallet")
                .isEqualTo(1);
        fixture.awaitEntry(flooded, e -> e.path("telemetry").path("wallets").asLong() == 1);
    }
}
