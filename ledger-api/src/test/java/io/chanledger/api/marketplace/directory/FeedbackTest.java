package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code POST /api/feedback} as the deployed agent client sends it, unsigned: the rules of a
 * report, the counts in the directory (unverified, apart from the verified ones), the rate limit.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FeedbackTest extends LedgerIntegrationTest {

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    MeterRegistry meters;

    private MarketplaceFixture fixture;
    private MarketplaceFixture.Registered rated;
    private MarketplaceFixture.Registered aged;
    private MarketplaceFixture.Registered untouched;
    private MarketplaceFixture.Registered busy;

    @BeforeAll
    void registerProviders() {
        fixture = new MarketplaceFixture(baseUrl());
        rated = fixture.register(b -> { }, "rated", null);
        aged = fixture.register(b -> { }, "aged", null);
        untouched = fixture.register(b -> { }, "untouched", null);
        busy = fixture.register(b -> { }, "busy", null);
        fixture.approve(rated);
    }

    @AfterAll
    void stopProviders() {
        fixture.close();
    }

    private Http.Reply feedback(String body) {
        return Reports.post(baseUrl() + "/api/feedback", body);
    }

    private static String report(String providerId, String outcome, String reason) {
        return "{\"providerId\":\"" + providerId + "\",\"outcome\":\"" + outcome + "\""
                + (reason == null ? "" : ",\"reason\":\"" + reason + "\"") + ",\"protocol\":\"chan\"}";
    }

    private long rows(String providerId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM marketplace_feedback WHERE provider_id = ?", Long.class,
                providerId);
    }

    private double counter(String outcome, String reason) {
        var counter = meters.find("chan.marketplace.feedback").tag("outcome", outcome).tag("reason", reason).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void reportsAreCountedPerProviderAndShownInTheDirectory() {
        double timeoutsBefore = counter("failure", "timeout");
        for (String body : new String[]{report(rated.id(), "success", null), report(rated.id(), "success", null),
                "{\"providerId\":\"" + rated.id() + "\",\"outcome\":\"success\"}",
                report(rated.id(), "failure", "timeout"), report(rated.id(), "failure", "quality"),
                report(rated.id(), "failure", null)}) {
            Http.Reply reply = feedback(body);
            assertThat(reply.status()).as(reply.body()).isEqualTo(202);
            assertThat(reply.json().path("recorded").asBoolean()).isTrue();
            assertThat(reply.json().path("verified").asBoolean()).isFalse();
        }

        fixture.awaitEntry(rated, e -> e.path("feedback").path("unverified").path("reports").asLong() == 6);
        JsonNode all = fixture.directoryEntry(rated.id()).path("feedback");
        assertThat(all.path("window").asText()).isEqualTo("PT168H");
        assertThat(all.path("reports").asLong()).as("none verified").isZero();
        assertThat(all.path("successRate").isNull()).isTrue();
        JsonNode feedback = all.path("unverified");
        assertThat(feedback.path("successes").asLong()).isEqualTo(3);
        assertThat(feedback.path("failures").asLong()).isEqualTo(3);
        assertThat(feedback.path("successRate").decimalValue()).isEqualByComparingTo("0.5");
        assertThat(feedback.path("failureReasons").toString()).isEqualTo("{\"quality\":1,\"timeout\":1}");
        assertThat(counter("failure", "timeout")).isEqualTo(timeoutsBefore + 1);
        JsonNode directory = Http.get(baseUrl() + "/api/directory/providers").json();
        for (JsonNode entry : directory.path("providers")) {
            if (entry.path("id").asText().equals(rated.id())) {
                assertThat(entry.path("feedback").path("unverified")).isEqualTo(feedback);
            }
        }
        JsonNode none = fixture.directoryEntry(untouched.id()).path("feedback");
        assertThat(none.path("reports").asLong()).isZero();
        assertThat(none.path("successRate").isNull()).isTrue();
        assertThat(none.path("failureReasons").isEmpty()).isTrue();
        assertThat(none.path("unverified").path("reports").asLong()).isZero();
        assertThat(none.path("unverified").path("successRate").isNull()).isTrue();
    }

    @Test
    void reportsOlderThanTheWindowAreNeitherCountedNorKept() {
        Instant eightDaysAgo = Instant.now().minus(Duration.ofDays(8));
        jdbc.update("INSERT INTO marketplace_feedback (provider_id, received_at, outcome, reason) VALUES (?, ?, ?, ?)",
                aged.id(), eightDaysAgo.atOffset(ZoneOffset.UTC), "failure", "error");

        assertThat(feedback(report(aged.id(), "success", null)).status()).isEqualTo(202);

        fixture.awaitEntry(aged, e -> e.path("feedback").path("unverified").path("reports").asLong() == 1);
        JsonNode feedback = fixture.directoryEntry(aged.id()).path("feedback").path("unverified");
        assertThat(feedback.path("failures").asLong()).isZero();
        assertThat(feedback.path("successRate").decimalValue()).isEqualByComparingTo("1");
        // the catalog may be rebuilt for another reason (telemetry) before the feedback's own
        // publication drops the rows past the window: the old row goes with that publication
        await("the report past the window to be dropped").atMost(Duration.ofSeconds(20))
                .until(() -> rows(aged.id()) == 1);
    }

    @Test
    void aReportOnAnUnknownProviderIsNotFound() {
        Reports.assertRefused(feedback(report("prov-000000000000000000000000", "success", null)), 404,
                "provider_not_found");
        JsonNode problem = Reports.assertRefused(feedback(report("openai", "success", null)), 404, "provider_not_found");
        assertThat(problem.path("error").asText()).contains("openai");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "not JSON|`{\"providerId\":`|malformed_body|",
            "empty|``|malformed_body|",
            "an array|`[]`|malformed_body|",
            "no provider|`{\"outcome\":\"success\"}`|invalid_field|providerId",
            "a provider that is not a string|`{\"providerId\":7,\"outcome\":\"success\"}`|invalid_field|providerId",
            "no outcome|`{\"providerId\":\"ID\"}`|invalid_field|outcome",
            "an unknown outcome|`{\"providerId\":\"ID\",\"outcome\":\"ok\"}`|invalid_field|outcome",
            "a reason with a success|`{\"providerId\":\"ID\",\"outcome\":\"success\",\"reason\":\"quality\"}`|invalid_field|reason",
            "an unknown reason|`{\"providerId\":\"ID\",\"outcome\":\"failure\",\"reason\":\"slow\"}`|invalid_field|reason",
            "a reason that is not a string|`{\"providerId\":\"ID\",\"outcome\":\"failure\",\"reason\":3}`|invalid_field|reason",
            "another protocol|`{\"providerId\":\"ID\",\"outcome\":\"success\",\"protocol\":\"mpp\"}`|invalid_field|protocol"})
    void aReportBreakingARuleIsRefusedWithAMessageAndNotRecorded(String rule, String body, String code, String field) {
        Http.Reply reply = feedback(body == null ? "" : body.replace("ID", untouched.id()));

        JsonNode problem = Reports.assertRefused(reply, 400, code);
        if (field != null) {
            assertThat(problem.path("field").asText()).isEqualTo(field);
            assertThat(problem.path("error").asText()).startsWith(field + ":");
        }
        assertThat(rows(untouched.id())).isZero();
    }

    @Test
    void eachClientAddressHasItsOwnLimit() {
        String client = Reports.newClient();
        String body = report(busy.id(), "failure", "unavailable");
        for (int i = 0; i < 5; i++) {
            assertThat(Reports.post(baseUrl() + "/api/feedback", client, "application/json", body).status())
                    .isEqualTo(202);
        }

        Http.Reply limited = Reports.post(baseUrl() + "/api/feedback", client, "application/json", body);

        Reports.assertRefused(limited, 429, "rate_limited");
        assertThat(limited.raw().headers().firstValueAsLong("Retry-After").orElseThrow()).isPositive();
        assertThat(rows(busy.id())).isEqualTo(5);
        assertThat(feedback(body).status()).as("another client").isEqualTo(202);
        assertThat(rows(busy.id())).isEqualTo(6);
    }
}
