package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code POST /api/telemetry} as the deployed agent client sends it after each paid request
 * ({@code {providerId, latencyMs, httpStatus, costUsdc, protocol, timestamp, agentId}}, unsigned,
 * fire and forget): the reports become each provider's unverified telemetry in the directory
 * (latency percentiles, failures by status or without one, paid volume), shown apart and in no
 * quality score, without anything about the agent; one source network moves at most its share,
 * whatever agent ids it invents; bad reports are 4xx and record nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProviderTelemetryTest extends LedgerIntegrationTest {

    @Autowired
    JdbcTemplate jdbc;

    private MarketplaceFixture fixture;
    private MarketplaceFixture.Registered observed;
    private MarketplaceFixture.Registered flooded;
    private MarketplaceFixture.Registered refused;
    private MarketplaceFixture.Registered quiet;

    @BeforeAll
    void registerProviders() {
        fixture = new MarketplaceFixture(baseUrl());
        observed = fixture.register(b -> { }, "observed", null);
        flooded = fixture.register(b -> { }, "flooded", null);
        refused = fixture.register(b -> { }, "refused", null);
        quiet = fixture.register(b -> { }, "quiet", null);
        fixture.approve(observed);
        fixture.approve(quiet);
    }

    @AfterAll
    void stopProviders() {
        fixture.close();
    }

    /** The deployed client's event, with its cost as given (a JSON string or a bare number). */
    private static String report(String providerId, String latencyMs, int status, String costJson, String agentId) {
        return "{\"providerId\":\"" + providerId + "\",\"latencyMs\":" + latencyMs + ",\"httpStatus\":" + status
                + ",\"costUsdc\":" + costJson + ",\"protocol\":\"chan\",\"timestamp\":\"2026-11-21T10:00:00.000Z\","
                + "\"agentId\":\"" + agentId + "\"}";
    }

    private Http.Reply post(String client, String body) {
        return Reports.post(baseUrl() + "/api/telemetry", client, "application/json", body);
    }

    private long rows(String providerId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM marketplace_telemetry WHERE provider_id = ?", Long.class,
                providerId);
    }

    @Test
    void unsignedReportsOfPaidRequestsAreTheProvidersUnverifiedTelemetryAndMoveNoScore() {
        String agentId = "agent-" + UUID.randomUUID();
        List<String> reports = List.of(
                report(observed.id(), "100", 200, "\"0.0042\"", agentId),
                report(observed.id(), "200", 200, "0.0015", agentId + "-2"),
                report(observed.id(), "300", 200, "\"0.01\"", agentId + "-3"),
                report(observed.id(), "399.6", 200, "0.1", agentId + "-4"),
                report(observed.id(), "500", 200, "0.2", agentId + "-5"),
                report(observed.id(), "600", 200, "\"0\"", agentId + "-6"),
                report(observed.id(), "700", 502, "0", agentId + "-7"),
                report(observed.id(), "5000", 0, "\"0.000001\"", agentId + "-8"));
        for (String body : reports) {
            Http.Reply reply = post(Reports.newClient(), body);
            assertThat(reply.status()).as(reply.body()).isEqualTo(202);
            assertThat(reply.json().path("recorded").asInt()).isEqualTo(1);
            assertThat(reply.json().path("verified").asInt()).isZero();
        }

        fixture.awaitEntry(observed, e -> e.path("telemetry").path("unverified").path("requests").asLong() == 8);
        JsonNode entry = fixture.directoryEntry(observed.id());
        assertThat(entry.path("telemetry").path("window").asText()).isEqualTo("PT24H");
        assertThat(entry.path("telemetry").path("requests").asLong()).as("none verified").isZero();
        assertThat(entry.path("telemetry").path("wallets").asLong()).isZero();
        JsonNode telemetry = entry.path("telemetry").path("unverified");
        assertThat(telemetry.path("failures").asLong()).isEqualTo(2);
        assertThat(telemetry.path("failureRate").decimalValue()).isEqualByComparingTo("0.25");
        assertThat(telemetry.path("failuresByStatus").toString()).isEqualTo("{\"502\":1}");
        assertThat(telemetry.path("failuresWithoutStatus").asLong()).as("httpStatus 0: no HTTP answer").isEqualTo(1);
        assertThat(telemetry.path("latencyMs").path("p50").asLong()).as("the fourth of eight, 399.6 rounded")
                .isEqualTo(400);
        assertThat(telemetry.path("latencyMs").path("p95").asLong()).isEqualTo(5000);
        assertThat(telemetry.path("paidVolume").asText()).as("base units, summed exactly")
                .isEqualTo("315701");
        // unverified reports count in no score: every health check passed, quickly
        assertThat(entry.path("qualityScore").decimalValue()).isEqualByComparingTo("1");
        assertThat(entry.toString()).doesNotContain(agentId);

        JsonNode listed = Http.get(baseUrl() + "/api/mcp/providers?online=false&model=" + fixture.token).json();
        JsonNode provider = null;
        for (JsonNode p : listed.path("providers")) {
            if (p.path("id").asText().equals(observed.id())) {
                provider = p;
            }
        }
        assertThat(provider).isNotNull();
        assertThat(provider.path("qualityScore").decimalValue()).isEqualByComparingTo("1");
        assertThat(provider.path("docsUrl").asText()).isEqualTo(observed.stub().url() + "/v1/docs");
        JsonNode compact = Http.get(baseUrl() + "/api/mcp/providers?online=false&format=compact&model="
                + fixture.token).json();
        assertThat(compact.findValues("qualityScore")).isNotEmpty();

        List<String> columns = jdbc.queryForList("SELECT column_name FROM information_schema.columns "
                + "WHERE table_name = 'marketplace_telemetry' ORDER BY column_name", String.class);
        assertThat(columns).containsExactly("cost", "http_status", "latency_ms", "provider_id", "received_at", "wallet");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM marketplace_telemetry WHERE provider_id = ? "
                + "AND wallet IS NOT NULL", Long.class, observed.id())).as("nothing about the sender").isZero();
    }

    @Test
    void aProviderNobodyReportedOnHasNoTelemetryAndAScoreFromItsHealthChecksAlone() {
        fixture.awaitEntry(quiet, e -> !e.path("qualityScore").isNull());
        JsonNode entry = fixture.directoryEntry(quiet.id());
        assertThat(entry.path("telemetry").path("requests").asLong()).isZero();
        assertThat(entry.path("telemetry").path("failureRate").isNull()).isTrue();
        assertThat(entry.path("telemetry").path("latencyMs").path("p50").isNull()).isTrue();
        assertThat(entry.path("telemetry").path("paidVolume").asText()).isEqualTo("0");
        assertThat(entry.path("qualityScore").decimalValue()).as("every health check passed").isEqualByComparingTo("1");
    }

    @Test
    void oneSourceNetworkCountsAtMostItsShareOfAProvidersReportsWhateverAgentIdsItInvents() {
        StringBuilder manyAgents = new StringBuilder("[");
        for (int i = 0; i < 5; i++) {
            manyAgents.append(i == 0 ? "" : ",").append(report(flooded.id(), "50", 200, "\"1\"",
                    "agent-" + UUID.randomUUID()));
        }
        Http.Reply fromOneAddress = post("192.0.2.10", manyAgents.append("]").toString());
        int fromOneNetwork = 0;
        for (int host = 1; host <= 5; host++) {
            Http.Reply reply = post("198.51.100." + host, report(flooded.id(), "50", 200, "\"1\"", "agent-" + host));
            assertThat(reply.status()).as("accepted whatever its weight").isEqualTo(202);
            fromOneNetwork += reply.json().path("recorded").asInt();
        }
        String agent = "agent-" + UUID.randomUUID();
        int oneAgentFromThreeNetworks = 0;
        for (int network = 1; network <= 3; network++) {
            oneAgentFromThreeNetworks += post("203.0." + network + ".1", report(flooded.id(), "50", 200, "\"1\"", agent))
                    .json().path("recorded").asInt();
        }

        assertThat(fromOneAddress.status()).isEqualTo(202);
        assertThat(fromOneAddress.json().path("accepted").asInt()).isEqualTo(5);
        assertThat(fromOneAddress.json().path("recorded").asInt()).isEqualTo(3);
        assertThat(fromOneNetwork).as("five addresses of one /24").isEqualTo(3);
        assertThat(oneAgentFromThreeNetworks).as("an agent id bounds nothing: anyone can send any").isEqualTo(3);
        assertThat(rows(flooded.id())).isEqualTo(9);
        fixture.awaitEntry(flooded, e -> e.path("telemetry").path("unverified").path("requests").asLong() == 9);
        assertThat(fixture.directoryEntry(flooded.id()).path("telemetry").path("unverified").path("paidVolume")
                .asText()).isEqualTo("9000000");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "a cost with seven decimals|`\"0.0000001\"`|200|100|costUsdc",
            "a cost as a number with seven decimals|`0.0000001`|200|100|costUsdc",
            "a negative cost|`-1`|200|100|costUsdc",
            "a cost with an exponent|`\"1e3\"`|200|100|costUsdc",
            "a cost that is not a number|`true`|200|100|costUsdc",
            "a cost above what a request costs|`\"10.000001\"`|200|100|costUsdc",
            "a status outside HTTP's|`\"0.01\"`|99|100|httpStatus",
            "a negative status|`\"0.01\"`|-1|100|httpStatus",
            "a negative latency|`\"0.01\"`|200|-5|latencyMs",
            "a latency that is not a number|`\"0.01\"`|200|`\"fast\"`|latencyMs"})
    void aBadReportIsRefusedWithA400NamingTheFieldAndRecordsNothing(String what, String cost, int status,
                                                                   String latency, String field) {
        String body = "[" + report(refused.id(), "10", 200, "\"0.01\"", "a") + ","
                + report(refused.id(), latency, status, cost, "b") + "]";

        JsonNode problem = Reports.assertRefused(post(Reports.newClient(), body), 400, "invalid_telemetry");

        assertThat(problem.path("field").asText()).isEqualTo(field);
        assertThat(problem.path("event").asInt()).isEqualTo(1);
        assertThat(problem.path("error").asText()).startsWith("events[1]." + field);
        assertThat(rows(refused.id())).isZero();
    }

    @Test
    void aReportOnAnUnknownProviderOrOfAnotherProtocolIsRefused() {
        Reports.assertRefused(post(Reports.newClient(), report("prov-000000000000000000000000", "10", 200, "\"0.01\"",
                "a")), 404, "provider_not_found");
        Reports.assertRefused(post(Reports.newClient(), report("not-an-id", "10", 200, "\"0.01\"", "a")), 404,
                "provider_not_found");
        JsonNode problem = Reports.assertRefused(post(Reports.newClient(), report(refused.id(), "10", 200, "\"0.01\"",
                "a").replace("\"protocol\":\"chan\"", "\"protocol\":\"mpp\"")), 400, "invalid_telemetry");
        assertThat(problem.path("field").asText()).isEqualTo("protocol");
        JsonNode missing = Reports.assertRefused(post(Reports.newClient(), "{\"httpStatus\":200,\"costUsdc\":\"0.01\"}"),
                400, "invalid_telemetry");
        assertThat(missing.path("field").asText()).isEqualTo("providerId");
        assertThat(rows(refused.id())).isZero();
    }
}
