package io.chanledger.api.ledger.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.AdminReads;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import java.net.URI;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.Test;

/**
 * Metrics carry the provider's revenue, which the API shows only to the admin and a channel's
 * parties: every actuator endpoint but health takes the admin token; health stays open for
 * probes and shows statuses only.
 */
class ActuatorAccessTest extends LedgerIntegrationTest {

    private static final String REVENUE = "chan_gateway_charged_usdc_base_units_total";

    private static void assertUnauthorized(Http.Reply reply) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(401);
        assertThat(reply.contentType()).startsWith("application/problem+json");
        JsonNode problem = reply.json();
        assertThat(problem.path("code").asText()).isEqualTo("admin_unauthorized");
        assertThat(problem.path("status").asInt()).isEqualTo(401);
        assertThat(reply.body()).doesNotContain(REVENUE).doesNotContain("measurements").doesNotContain("_links");
    }

    @Test
    void anonymousCallersGetNoMetrics() {
        for (String path : new String[] {"/actuator/prometheus", "/actuator/metrics",
                "/actuator/metrics/chan.gateway.charged", "/actuator", "/actuator/info",
                "/actuator/metrics/chan.gateway.charged;x=1", "/actuator//prometheus"}) {
            assertUnauthorized(Http.get(baseUrl() + path));
        }
    }

    @Test
    void aWrongTokenGetsNoMetrics() {
        assertUnauthorized(Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/actuator/prometheus"))
                .header("Authorization", "Bearer not-the-admin-token").GET()));
    }

    @Test
    void theAdminReadsTheProvidersRevenueInMetrics() {
        Http.Reply prometheus = AdminReads.get(baseUrl() + "/actuator/prometheus");

        assertThat(prometheus.status()).isEqualTo(200);
        assertThat(prometheus.body()).contains(REVENUE);
        Http.Reply charged = AdminReads.get(baseUrl() + "/actuator/metrics/chan.gateway.charged");
        assertThat(charged.status()).isEqualTo(200);
        assertThat(charged.json().path("baseUnit").asText()).isEqualTo("usdc_base_units");
    }

    @Test
    void healthStaysOpenAndShowsStatusesOnly() {
        Http.Reply health = Http.get(baseUrl() + "/actuator/health");

        assertThat(health.status()).isEqualTo(200);
        JsonNode body = health.json();
        assertThat(body.path("status").asText()).isEqualTo("UP");
        assertThat(body.path("components").path("gasStation").path("status").asText()).isEqualTo("UP");
        assertThat(body.findValues("details")).as("no component's details").isEmpty();
        assertThat(health.body()).doesNotContainIgnoringCase("balance").doesNotContainIgnoringCase("charged");
        assertThat(Http.get(baseUrl() + "/actuator/health/db").status()).isEqualTo(200);
    }
}
