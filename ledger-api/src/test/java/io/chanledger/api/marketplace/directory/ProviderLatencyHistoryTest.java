package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every health check's outcome is kept for a day and served, oldest first, for the provider page's chart. */
class ProviderLatencyHistoryTest extends LedgerIntegrationTest {

    @Test
    void theChecksOfAnApprovedProviderAreServedOldestFirstWithTheirLatency() {
        try (MarketplaceFixture fixture = new MarketplaceFixture(baseUrl())) {
            MarketplaceFixture.Registered provider = fixture.register(b -> { }, "latency", null);
            fixture.approve(provider);
            String url = baseUrl() + "/api/directory/providers/" + provider.id() + "/latency";

            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                    .until(() -> Http.get(url).json().path("samples").size() >= 3);
            JsonNode history = Http.get(url).json();

            assertThat(history.path("providerId").asText()).isEqualTo(provider.id());
            List<Instant> times = new ArrayList<>();
            for (JsonNode sample : history.path("samples")) {
                times.add(Instant.parse(sample.path("at").asText()));
                assertThat(sample.path("ok").asBoolean()).isTrue();
                assertThat(sample.path("latencyMs").asLong()).isNotNegative();
            }
            assertThat(times).isSorted();
            assertThat(times.getFirst()).isAfter(Instant.parse(history.path("since").asText()));
        }
    }

    @Test
    void aFailedCheckIsKeptWithoutALatency() {
        try (MarketplaceFixture fixture = new MarketplaceFixture(baseUrl())) {
            MarketplaceFixture.Registered provider = fixture.register(b -> { }, "latency-down", null);
            fixture.approve(provider);
            String url = baseUrl() + "/api/directory/providers/" + provider.id() + "/latency";
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                    .until(() -> Http.get(url).json().path("samples").size() >= 1);

            provider.stub().down(true);

            // a check of the provider that did not answer at all: failed, and no latency to show
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> {
                for (JsonNode sample : Http.get(url).json().path("samples")) {
                    if (!sample.path("ok").asBoolean() && !sample.hasNonNull("latencyMs")) {
                        return true;
                    }
                }
                return false;
            });
        }
    }

    @Test
    void anUnknownProviderHasNoHistory() {
        Http.Reply reply = Http.get(baseUrl() + "/api/directory/providers/prov-000000000000000000000000/latency");
        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.json().path("code").asText()).isEqualTo("provider_not_found");
    }
}
