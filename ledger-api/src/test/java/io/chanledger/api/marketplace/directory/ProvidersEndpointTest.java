package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.domain.eip712.Hex;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProvidersEndpointTest extends LedgerIntegrationTest {

    private static final List<String> CATEGORIES = List.of("llm", "image", "audio", "video", "code", "multi-modal",
            "scraping", "search", "data", "scheduling", "network", "forecasting", "other");

    @Autowired
    ResponseBodies bodies;

    private MarketplaceFixture fixture;
    private MarketplaceFixture.Registered chat;
    private MarketplaceFixture.Registered vision;
    private MarketplaceFixture.Registered audio;
    private MarketplaceFixture.Registered pending;

    @BeforeAll
    void registerProviders() {
        fixture = new MarketplaceFixture(baseUrl());
        chat = fixture.register(b -> { }, "alpha-chat", null, "alpha-coder", "Alpha Coder");
        vision = fixture.register(b -> b.put("category", "image").put("tier", "bittensor").put("uid", 7)
                .put("hotkey", "5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX").remove("additionalCategories"),
                "beta-vision", "Vision Deluxe");
        audio = fixture.register(b -> b.put("category", "audio"), "gamma-whisper", null);
        pending = fixture.register(b -> { }, "delta-chat", null);
        fixture.approve(chat);
        fixture.approve(audio);
        fixture.score(chat, "0.9");
        fixture.score(vision, "0.3");
        audio.stub().down(true);
        fixture.awaitEntry(chat, e -> e.path("score").asDouble() == 0.9 && e.path("approval").path("state").asText().equals("approved"));
        fixture.awaitEntry(vision, e -> e.path("score").asDouble() == 0.3);
        fixture.awaitEntry(audio, e -> !e.path("status").path("online").asBoolean());
        fixture.awaitEntry(pending, e -> e.path("approval").path("state").asText().equals("pending"));
    }

    @AfterAll
    void stopProviders() {
        fixture.close();
    }

    private static List<String> ids(JsonNode providers) {
        List<String> ids = new ArrayList<>();
        providers.forEach(p -> ids.add(p.path("id").asText()));
        return ids;
    }

    @Test
    void everyProviderHasEveryFieldOfTheSpecWithItsType() {
        Http.Reply reply = Http.get(baseUrl() + "/api/mcp/providers?online=false&model=" + fixture.token);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.contentType()).startsWith("application/json");
        JsonNode body = reply.json();
        assertThat(body.path("version").isTextual()).isTrue();
        assertThat(body.path("version").asText()).isEqualTo("1.0");
        assertThat(body.path("count").isInt()).isTrue();
        assertThat(body.path("count").asInt()).isEqualTo(body.path("providers").size()).isEqualTo(3);
        assertThat(Instant.parse(body.path("timestamp").asText())).isNotNull();
        for (JsonNode provider : body.path("providers")) {
            assertThat(provider.path("id").isTextual()).isTrue();
            assertThat(provider.path("name").isTextual()).isTrue();
            assertThat(provider.path("description").isTextual()).isTrue();
            assertThat(URI.create(provider.path("apiUrl").asText()).getScheme()).isEqualTo("http");
            assertThat(Hex.isValidChecksum(provider.path("providerAddress").asText())).isTrue();
            assertThat(CATEGORIES).contains(provider.path("category").asText());
            assertThat(provider.path("chainId").isIntegralNumber()).isTrue();
            assertThat(provider.path("chainId").asLong()).isEqualTo(137);
            JsonNode status = provider.path("status");
            assertThat(status.path("online").isBoolean()).isTrue();
            assertThat(Instant.parse(status.path("lastChecked").asText())).isNotNull();
            assertThat(status.path("latencyMs").isIntegralNumber()).isTrue();
            assertThat(provider.path("models").isArray()).isTrue();
            assertThat(provider.path("models").size()).isPositive();
            for (JsonNode model : provider.path("models")) {
                assertThat(model.path("id").isTextual()).isTrue();
                assertThat(model.path("name").isTextual()).isTrue();
                JsonNode pricing = model.path("pricing");
                assertThat(pricing.path("inputPer1kTokens").isTextual()).isTrue();
                assertThat(pricing.path("inputPer1kTokens").asText()).isEqualTo("0.00015");
                assertThat(pricing.path("outputPer1kTokens").asText()).isEqualTo("0.0006");
                assertThat(pricing.path("currency").asText()).isEqualTo("USDC");
                assertThat(pricing.path("decimals").isInt()).isTrue();
                assertThat(pricing.path("decimals").asInt()).isEqualTo(6);
            }
            assertThat(provider.path("protocol").asText()).isEqualTo("chan");
        }
        JsonNode meta = body.path("_meta");
        assertThat(meta.path("protocol").asText()).isEqualTo("chan-v2");
        assertThat(meta.path("network").asText()).isEqualTo("polygon");
        assertThat(meta.path("contract").asText()).isEqualTo("0x5FbDB2315678afecb367f032d93F642f64180aa3");
        assertThat(URI.create(meta.path("directoryUrl").asText()).isAbsolute()).isTrue();
        assertThat(URI.create(meta.path("marketplaceUrl").asText()).isAbsolute()).isTrue();
        JsonNode filters = body.path("_filters");
        assertThat(filters.fieldNames()).toIterable()
                .containsExactly("category", "model", "tier", "minScore", "limit", "online", "format");
        assertThat(filters.path("format").path("values")).extracting(JsonNode::asText).containsExactly("full", "compact");
        assertThat(filters.path("format").path("default").asText()).isEqualTo("full");
        assertThat(filters.path("category").path("values")).extracting(JsonNode::asText).containsExactlyElementsOf(CATEGORIES);
        assertThat(filters.path("tier").path("values")).extracting(JsonNode::asText).containsExactly("bittensor", "community");
        assertThat(filters.path("minScore").path("minimum").asInt()).isZero();
        assertThat(filters.path("minScore").path("maximum").asInt()).isEqualTo(1);
        assertThat(filters.path("limit").path("maximum").asInt()).isEqualTo(200);
        assertThat(filters.path("limit").path("default").asInt()).isEqualTo(200);
    }

    @Test
    void byDefaultOnlyApprovedOnlineProvidersAreListedHighestScoreFirst() {
        assertThat(fixture.listed("")).containsExactly(chat.id(), vision.id());
    }

    @Test
    void onlineFalseAddsOfflineProvidersButNeverPendingOnes() {
        assertThat(fixture.listed("online=false")).containsExactly(chat.id(), vision.id(), audio.id());
        assertThat(fixture.listed("online=true")).containsExactly(chat.id(), vision.id());
    }

    @Test
    void categoryMatchesTheMainOrAnAdditionalCategory() {
        assertThat(fixture.listed("category=llm")).containsExactly(chat.id());
        assertThat(fixture.listed("category=code")).containsExactly(chat.id());
        assertThat(fixture.listed("category=image")).containsExactly(vision.id());
        assertThat(fixture.listed("category=audio&online=false")).containsExactly(audio.id());
        assertThat(fixture.listed("category=video")).isEmpty();
    }

    @Test
    void tierFiltersByTier() {
        assertThat(fixture.listed("tier=bittensor")).containsExactly(vision.id());
        assertThat(fixture.listed("tier=community")).containsExactly(chat.id());
    }

    @Test
    void minScoreKeepsProvidersAtOrAboveIt() {
        assertThat(fixture.listed("minScore=0.5")).containsExactly(chat.id());
        assertThat(fixture.listed("minScore=0.3")).containsExactly(chat.id(), vision.id());
        assertThat(fixture.listed("minScore=0")).containsExactly(chat.id(), vision.id());
        assertThat(fixture.listed("minScore=1")).isEmpty();
    }

    @Test
    void modelMatchesPartOfAModelIdOrNameIgnoringCase() {
        String token = fixture.token;
        assertThat(ids(Http.get(baseUrl() + "/api/mcp/providers?model=" + token.toUpperCase() + "-ALPHA").json()
                .path("providers"))).containsExactly(chat.id());
        assertThat(Http.get(baseUrl() + "/api/mcp/providers?model=" + token + "-beta-vision").json()
                .path("count").asInt()).isEqualTo(1);
        List<String> byName = ids(Http.get(baseUrl() + "/api/mcp/providers?model=vision%20DELUXE&tier=bittensor").json()
                .path("providers"));
        assertThat(byName).contains(vision.id()).doesNotContain(chat.id());
        assertThat(ids(Http.get(baseUrl() + "/api/mcp/providers?model=alpha%20coder").json().path("providers")))
                .contains(chat.id()).doesNotContain(vision.id());
    }

    @Test
    void limitCutsTheListAfterOrdering() {
        Http.Reply reply = Http.get(baseUrl() + "/api/mcp/providers?limit=1&model=" + fixture.token);

        assertThat(reply.json().path("count").asInt()).isEqualTo(1);
        assertThat(ids(reply.json().path("providers"))).containsExactly(chat.id());
        assertThat(fixture.listed("limit=200")).hasSize(2);
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
            "category|crypto|llm", "category|LLM|multi-modal", "tier|gold|bittensor", "tier|Bittensor|community",
            "minScore|1.5|maximum", "minScore|-0.1|minimum", "minScore|abc|maximum", "minScore|1e-1|maximum",
            "limit|0|maximum", "limit|201|maximum", "limit|ten|maximum", "limit|1.5|maximum", "limit|-3|maximum",
            "online|maybe|false", "online|TRUE|false", "format|short|compact", "format|COMPACT|full"})
    void anInvalidParameterIsRefusedNamingItAndItsAllowedValues(String parameter, String value, String allowed) {
        Http.Reply reply = Http.get(baseUrl() + "/api/mcp/providers?" + parameter + "=" + value);

        ProviderRegistrationTest.assertProblem(reply, 400, "invalid_parameter", null);
        JsonNode problem = reply.json();
        assertThat(problem.path("parameter").asText()).isEqualTo(parameter);
        assertThat(problem.path("allowed").toString()).contains(allowed);
        assertThat(problem.path("detail").asText()).startsWith(parameter + ":");
    }

    @Test
    void anEmptyModelIsRefused() {
        Http.Reply reply = Http.get(baseUrl() + "/api/mcp/providers?model=");

        ProviderRegistrationTest.assertProblem(reply, 400, "invalid_parameter", null);
        assertThat(reply.json().path("parameter").asText()).isEqualTo("model");
    }

    @Test
    void largeListsAreSentFromFilesWithTheSameBytes() {
        long before = bodies.sentFromFiles();

        Http.Reply reply = Http.get(baseUrl() + "/api/mcp/providers?online=false&model=" + fixture.token);

        assertThat(bodies.sentFromFiles()).isGreaterThan(before);
        assertThat(reply.body().length()).isGreaterThan(1024);
        assertThat(reply.raw().headers().firstValueAsLong("Content-Length")).hasValue(reply.body().length());
        assertThat(reply.json().path("count").asInt()).isEqualTo(3);
    }

    @Test
    void theUnfilteredListAndFilteredListsAnswerIfNoneMatchWith304() {
        for (String path : List.of("/api/mcp/providers", "/api/mcp/providers?model=" + fixture.token,
                "/api/mcp/providers?online=false&tier=community")) {
            ConditionalGets.assertRoundTrip(baseUrl() + path, "no-cache");
        }
    }
}
