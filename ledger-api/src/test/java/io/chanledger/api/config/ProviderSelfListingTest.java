package io.chanledger.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.RoleInstance;
import io.chanledger.domain.provider.ProviderIds;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A provider started with a marketplace's URL lists itself there, over HTTP only, signed with its
 * wallet as the sign-up page signs: the marketplace's directory then holds it with the models and
 * prices of its {@code /v1/pricing}. Started again, it is already listed and asks to be checked
 * again, which publishes the models and prices it has now; a refusal of that is logged at WARN and
 * shown in the provider's health. The marketplace polls nobody here, so only the provider's own
 * request can refresh its listing.
 */
@ExtendWith(OutputCaptureExtension.class)
class ProviderSelfListingTest {

    /** The tests' provider key (application-test.yml). */
    private static final String PROVIDER = "0x82c260900A77D4c707FE02789575d376E717C989";
    private static final String ID = ProviderIds.forAddress(PROVIDER.toLowerCase());

    @Test
    void aProviderListsItselfAtStartAndIsCheckedAgainWhenItRestarts(CapturedOutput output) throws IOException {
        try (ConfigurableApplicationContext market = RoleInstance.start(Role.MARKETPLACE, "chan_ledger_listing_market",
                Map.of("chan.listener.enabled", false, "chan.marketplace.health.enabled", false))) {
            String marketplace = RoleInstance.baseUrl(market);
            int port = freePort();
            try (ConfigurableApplicationContext provider = startProvider(port, marketplace, Map.of())) {
                await().atMost(Duration.ofSeconds(30)).until(() ->
                        Http.get(marketplace + "/api/directory/providers/" + ID).status() == 200);
                JsonNode entry = Http.get(marketplace + "/api/directory/providers/" + ID).json();
                assertThat(entry.path("apiUrl").asText()).isEqualTo("http://127.0.0.1:" + port);
                assertThat(entry.path("providerAddress").asText()).isEqualToIgnoringCase(PROVIDER);
                assertThat(entry.toString()).contains("echo-1", "page-fetch");
                JsonNode lease = model(entry, "vpn-lease");
                assertThat(lease.path("price").toString()).as("the per-unit lease is listed per unit").isEqualTo(
                        "{\"kind\":\"per-unit\",\"perUnit\":\"500\",\"unit\":\"minutes\",\"minUnits\":5,"
                                + "\"maxUnits\":120}");
                assertThat(lease.path("pricing").has("perRequest")).as("not as one price per request").isFalse();
                assertThat(model(entry, "page-fetch").path("pricing").path("perRequest").asText()).isEqualTo("0.02");
                assertThat(provider.containsBean("marketplaceListing")).isTrue();
                assertThat(listingHealth(port).path("details").path("outcome").asText()).isEqualTo("REGISTERED");
            }

            try (ConfigurableApplicationContext restarted = startProvider(port, marketplace, Map.of(
                    "chan.gateway.models[0].id", "echo-1", "chan.gateway.models[0].name", "Echo One",
                    "chan.gateway.models[0].upstream", "echo", "chan.gateway.models[0].input-per-1k-tokens", "0.005",
                    "chan.gateway.models[0].output-per-1k-tokens", "0.02"))) {
                JsonNode health = listingHealth(port);
                assertThat(health.path("status").asText()).as(health.toString()).isEqualTo("UP");
                assertThat(health.path("details").path("outcome").asText()).isEqualTo("RECHECKED");
                await("the directory to publish the models it read").atMost(Duration.ofSeconds(10)).until(() ->
                        Http.get(marketplace + "/api/directory/providers/" + ID).json().path("models").size() == 1);
                JsonNode models = Http.get(marketplace + "/api/directory/providers/" + ID).json().path("models");
                assertThat(models.get(0).path("pricing").path("inputPer1kTokens").asText()).isEqualTo("0.005");
                assertThat(models.get(0).path("pricing").path("outputPer1kTokens").asText()).isEqualTo("0.02");
            }

            Http.Reply suspended = Http.send(HttpRequest.newBuilder(URI.create(marketplace + "/api/admin/providers/"
                    + ID + "/suspend")).header("Authorization", "Bearer test-admin-token")
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}")));
            assertThat(suspended.status()).as(suspended.body()).isEqualTo(200);
            try (ConfigurableApplicationContext refused = startProvider(port, marketplace, Map.of())) {
                JsonNode health = listingHealth(port);
                assertThat(health.path("status").asText()).isEqualTo("RECHECK_REFUSED");
                assertThat(health.path("details").path("detail").asText()).contains("404", "suspended");
                assertThat(output.getOut() + output.getErr()).containsPattern(
                        "WARN .*refused to check this provider again.*404");
            }
        }
    }

    private static JsonNode model(JsonNode entry, String id) {
        for (JsonNode model : entry.path("models")) {
            if (model.path("id").asText().equals(id)) {
                return model;
            }
        }
        throw new AssertionError("no model " + id + " in " + entry);
    }

    private static ConfigurableApplicationContext startProvider(int port, String marketplace,
                                                                Map<String, Object> more) {
        Map<String, Object> settings = new LinkedHashMap<>(Map.of("server.port", port,
                "chan.gateway.public-url", "http://127.0.0.1:" + port,
                "chan.provider.marketplace-url", marketplace,
                "chan.provider.category", "llm",
                "chan.gateway.watchtower.enabled", false,
                "chan.listener.enabled", false));
        settings.putAll(more);
        return RoleInstance.start(Role.PROVIDER, "chan_ledger_self_listing", settings);
    }

    /** The provider's health component for its listing, once the listing is done (no longer UNKNOWN). */
    private static JsonNode listingHealth(int port) {
        String url = "http://127.0.0.1:" + port + "/api/admin/health";
        await().atMost(Duration.ofSeconds(30)).until(() -> !component(url).path("status").asText("UNKNOWN")
                .equals("UNKNOWN"));
        return component(url);
    }

    private static JsonNode component(String url) {
        return Http.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer test-admin-token")
                .GET()).json().path("components").path("marketplaceListing");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
