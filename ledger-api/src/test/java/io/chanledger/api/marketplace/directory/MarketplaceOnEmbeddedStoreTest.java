package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.LedgerApplication;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.SecretsFile;
import io.chanledger.domain.eip712.DigestSigner;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The marketplace's migrations and queries on the default profile's embedded store (the PostgreSQL
 * server the service starts itself): registration, approval, health checks, the lists, the directory history and
 * the shipped skills.
 */
class MarketplaceOnEmbeddedStoreTest {

    @Test
    void theMarketplaceWorksOnTheEmbeddedStore(@TempDir Path dataDir) {
        DigestSigner wallet = Registrations.newWallet("embedded");
        try (StubProvider stub = new StubProvider(wallet.address()).price("embedded-chat", "0.001", "0.002");
             ConfigurableApplicationContext app = new SpringApplicationBuilder(LedgerApplication.class).run(
                     "--server.port=0", "--chan.role=marketplace", "--chan.embedded-store.directory=" + dataDir,
                     SecretsFile.argument(dataDir, Map.of("chan.admin.token", Registrations.ADMIN_TOKEN)),
                     "--chan.marketplace.allow-private-addresses=true", "--chan.marketplace.health.interval=300ms",
                     "--chan.marketplace.health.jitter=10ms", "--chan.marketplace.health.failures-before-offline=1")) {
            String base = "http://127.0.0.1:" + ((WebServerApplicationContext) app).getWebServer().getPort();

            Http.Reply registered = Registrations.post(base, Registrations.body(wallet, stub.url(), b -> { }));
            assertThat(registered.status()).as(registered.body()).isEqualTo(201);
            String id = registered.json().path("id").asText();
            assertThat(Registrations.approve(base, id).status()).isEqualTo(200);
            assertThat(Http.get(base + "/api/mcp/providers").json().path("providers").get(0).path("id").asText())
                    .isEqualTo(id);

            stub.down(true);
            await().atMost(Duration.ofSeconds(20)).until(() ->
                    !Http.get(base + "/api/directory/providers/" + id).json().path("status").path("online").asBoolean());
            JsonNode entry = Http.get(base + "/api/directory/providers/" + id).json();
            assertThat(entry.path("history")).extracting(h -> h.path("event").asText())
                    .containsSubsequence("registered", "models_published", "online", "approved", "offline");
            assertThat(Http.get(base + "/api/mcp/providers").json().path("count").asInt()).isZero();
            assertThat(Http.get(base + "/api/validator/registry").status()).isEqualTo(200);
            assertThat(Http.get(base + "/api/skills").json().path("count").asInt()).isGreaterThanOrEqualTo(3);
        }
    }
}
