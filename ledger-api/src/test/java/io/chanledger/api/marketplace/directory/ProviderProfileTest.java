package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Registration also takes {@code contactEmail}, {@code logoUrl}, {@code website} and
 * {@code supportsStreaming}: the profile is recorded in the provider's event and shown in the
 * directory and the lists; the e-mail address is kept beside the event store and published nowhere.
 */
class ProviderProfileTest extends LedgerIntegrationTest {

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void theProfileIsPublishedAndTheEmailKeptOffTheEventLog() {
        try (MarketplaceFixture fixture = new MarketplaceFixture(baseUrl())) {
            MarketplaceFixture.Registered provider = fixture.register(b -> b.put("contactEmail", "ops@acme.example")
                    .put("logoUrl", "https://acme.example/logo.png").put("website", "https://acme.example")
                    .put("supportsStreaming", true), "profiled", null);
            MarketplaceFixture.Registered plain = fixture.register(b -> { }, "plain", null);
            fixture.approve(provider);
            fixture.awaitEntry(provider, e -> "approved".equals(e.path("approval").path("state").asText()));

            JsonNode entry = fixture.directoryEntry(provider.id());
            assertThat(entry.path("logoUrl").asText()).isEqualTo("https://acme.example/logo.png");
            assertThat(entry.path("website").asText()).isEqualTo("https://acme.example");
            assertThat(entry.path("supportsStreaming").asBoolean()).isTrue();
            assertThat(entry.toString()).doesNotContain("ops@acme.example");
            JsonNode plainEntry = fixture.directoryEntry(plain.id());
            assertThat(plainEntry.path("logoUrl").isNull()).isTrue();
            assertThat(plainEntry.path("supportsStreaming").isNull()).isTrue();

            JsonNode listed = Http.get(baseUrl() + "/api/mcp/providers?online=false&model=" + fixture.token).json()
                    .path("providers").get(0);
            assertThat(listed.path("id").asText()).isEqualTo(provider.id());
            assertThat(listed.path("logoUrl").asText()).isEqualTo("https://acme.example/logo.png");
            assertThat(listed.path("website").asText()).isEqualTo("https://acme.example");
            assertThat(listed.path("supportsStreaming").asBoolean()).isTrue();
            assertThat(Http.get(baseUrl() + "/api/directory/providers").body()).doesNotContain("ops@acme.example");

            Map<String, Object> contact = jdbc.queryForMap("SELECT contact, contact_email FROM "
                    + "marketplace_provider_contact WHERE provider_id = ?", provider.id());
            assertThat(contact.get("contact_email")).isEqualTo("ops@acme.example");
            List<String> events = jdbc.queryForList("SELECT payload FROM domain_event_entry WHERE aggregate_identifier = ?",
                    String.class, provider.id());
            assertThat(events).anySatisfy(e -> assertThat(e).contains("https://acme.example/logo.png")
                    .contains("\"supportsStreaming\":true"));
            assertThat(events).noneSatisfy(e -> assertThat(e).contains("ops@acme.example"));
        }
    }
}
