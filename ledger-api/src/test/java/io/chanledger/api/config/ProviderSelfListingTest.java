package io.chanledger.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.RoleInstance;
import io.chanledger.domain.provider.ProviderIds;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A provider started with a marketplace's URL lists itself there, over HTTP only, signed with its
 * wallet as the sign-up page signs: the marketplace's directory then holds it with the models and
 * prices of its {@code /v1/pricing}. Started again, it is already listed and says so.
 */
class ProviderSelfListingTest {

    /** The tests' provider key (application-test.yml). */
    private static final String PROVIDER = "0x82c260900A77D4c707FE02789575d376E717C989";

    @Test
    void aProviderWithAMarketplaceUrlListsItselfThereAtStart() throws IOException {
        try (ConfigurableApplicationContext market = RoleInstance.start(Role.MARKETPLACE, "chan_ledger_listing_market",
                Map.of("chan.listener.enabled", false))) {
            listsItselfAt(RoleInstance.baseUrl(market));
        }
    }

    private static void listsItselfAt(String marketplace) throws IOException {
        int port = freePort();
        Map<String, Object> settings = Map.of("server.port", port,
                "chan.gateway.public-url", "http://127.0.0.1:" + port,
                "chan.provider.marketplace-url", marketplace,
                "chan.provider.category", "llm",
                "chan.gateway.watchtower.enabled", false,
                "chan.listener.enabled", false);
        String id = ProviderIds.forAddress(PROVIDER.toLowerCase());
        try (ConfigurableApplicationContext provider = RoleInstance.start(Role.PROVIDER, "chan_ledger_self_listing",
                settings)) {
            await().atMost(Duration.ofSeconds(30)).until(() ->
                    Http.get(marketplace + "/api/directory/providers/" + id).status() == 200);
            JsonNode entry = Http.get(marketplace + "/api/directory/providers/" + id).json();
            assertThat(entry.path("apiUrl").asText()).isEqualTo("http://127.0.0.1:" + port);
            assertThat(entry.path("providerAddress").asText()).isEqualToIgnoringCase(PROVIDER);
            assertThat(entry.toString()).contains("echo-1", "page-fetch");
            assertThat(provider.containsBean("marketplaceListing")).isTrue();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
