package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.domain.eip712.Hex;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RegistryAndDirectoryTest extends LedgerIntegrationTest {

    private static final Pattern MAX_AGE = Pattern.compile("max-age=(\\d+), public");

    private MarketplaceFixture fixture;
    private MarketplaceFixture.Registered miner;
    private MarketplaceFixture.Registered pending;
    private MarketplaceFixture.Registered suspended;

    @BeforeAll
    void registerProviders() {
        fixture = new MarketplaceFixture(baseUrl());
        miner = fixture.register(b -> b.put("tier", "bittensor").put("uid", 11).put("category", "multi-modal")
                .put("hotkey", "5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX"), "m1", null, "m2", null, "m3", null);
        pending = fixture.register(b -> { }, "p1", null);
        suspended = fixture.register(b -> { }, "s1", null);
        fixture.approve(suspended);
        Http.Reply reply = Registrations.admin(baseUrl(), "POST", "/api/admin/providers/" + suspended.id() + "/suspend",
                "{\"reason\":\"served wrong prices\"}");
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        fixture.score(miner, "0.42");
        fixture.awaitEntry(suspended, e -> e.path("approval").path("state").asText().equals("suspended"));
        fixture.awaitEntry(miner, e -> e.path("score").asDouble() == 0.42);
    }

    @AfterAll
    void stopProviders() {
        fixture.close();
    }

    private JsonNode registryListing(String id) {
        JsonNode body = Http.get(baseUrl() + "/api/validator/registry").json();
        return StreamSupport.stream(body.path("miners").spliterator(), false)
                .filter(m -> m.path("id").asText().equals(id)).findFirst().orElse(null);
    }

    @Test
    void theRegistryHasEveryFieldOfTheSpecWithItsType() {
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                .until(() -> registryListing(miner.id()) != null);
        Http.Reply reply = Http.get(baseUrl() + "/api/validator/registry");
        JsonNode body = reply.json();

        assertThat(body.path("version").isTextual()).isTrue();
        assertThat(Instant.parse(body.path("updated").asText())).isNotNull();
        assertThat(body.path("miners").isArray()).isTrue();
        assertThat(body.path("count").isInt()).isTrue();
        assertThat(body.path("count").asInt()).isEqualTo(body.path("miners").size());
        assertThat(body.path("onlineCount").isInt()).isTrue();
        assertThat(body.path("onlineCount").asInt()).isEqualTo(body.path("count").asInt());
        assertThat(body.path("subnet").isInt()).isTrue();
        JsonNode entry = registryListing(miner.id());
        assertThat(entry.path("name").isTextual()).isTrue();
        assertThat(entry.path("tier").asText()).isEqualTo("bittensor");
        assertThat(entry.path("category").asText()).isEqualTo("multi-modal");
        assertThat(entry.path("additionalCategories")).extracting(JsonNode::asText).containsExactly("code");
        assertThat(entry.path("apiUrl").asText()).isEqualTo(miner.stub().url());
        assertThat(entry.path("wallet").asText()).isEqualTo(Hex.toChecksumAddress(miner.wallet().address()));
        assertThat(entry.path("hotkey").asText()).isEqualTo("5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX");
        assertThat(entry.path("uid").isInt()).isTrue();
        assertThat(entry.path("uid").asInt()).isEqualTo(11);
        assertThat(entry.path("score").isNumber()).isTrue();
        assertThat(entry.path("score").asDouble()).isEqualTo(0.42);
        assertThat(entry.path("online").isBoolean()).isTrue();
        assertThat(entry.path("online").asBoolean()).isTrue();
        assertThat(entry.path("inferenceOnline").isBoolean()).isTrue();
        assertThat(entry.path("latencyMs").isIntegralNumber()).isTrue();
        assertThat(Instant.parse(entry.path("lastChecked").asText())).isNotNull();
        assertThat(entry.path("modelCount").asInt()).isEqualTo(3);
        assertThat(entry.has("models")).isFalse();
        assertThat(reply.body()).doesNotContain("inputPer1kTokens");
        for (JsonNode each : body.path("miners")) {
            assertThat(each.has("hotkey")).isTrue();
            assertThat(each.has("uid")).isTrue();
            assertThat(each.path("online").asBoolean()).isTrue();
        }
    }

    @Test
    void theRegistryListsNeitherPendingNorSuspendedProviders() {
        await().atMost(Duration.ofSeconds(15)).until(() -> registryListing(miner.id()) != null);

        assertThat(registryListing(pending.id())).isNull();
        assertThat(registryListing(suspended.id())).isNull();
    }

    @Test
    void theRegistrySaysInCacheControlHowLongItsBodyStaysCurrent() {
        Http.Reply reply = Http.get(baseUrl() + "/api/validator/registry");

        String cacheControl = reply.raw().headers().firstValue("Cache-Control").orElseThrow();
        Matcher matcher = MAX_AGE.matcher(cacheControl);
        assertThat(matcher.matches()).as(cacheControl).isTrue();
        // the test profile serves one registry body for 2 s (production: 5 minutes)
        assertThat(Integer.parseInt(matcher.group(1))).isBetween(0, 2);
        ConditionalGets.assertRoundTrip(baseUrl() + "/api/validator/registry", null);
    }

    @Test
    void theDirectoryListsEveryProviderWithItsRegistrationStateAndHistory() {
        Http.Reply reply = Http.get(baseUrl() + "/api/directory/providers");
        JsonNode body = reply.json();

        assertThat(body.path("version").asText()).isEqualTo("1.0");
        assertThat(Instant.parse(body.path("updated").asText())).isNotNull();
        assertThat(body.path("count").asInt()).isEqualTo(body.path("providers").size());
        List<String> ids = StreamSupport.stream(body.path("providers").spliterator(), false)
                .map(p -> p.path("id").asText()).toList();
        assertThat(ids).contains(miner.id(), pending.id(), suspended.id());

        JsonNode entry = fixture.directoryEntry(suspended.id());
        assertThat(entry.path("approval").path("state").asText()).isEqualTo("suspended");
        assertThat(entry.path("approval").path("reason").asText()).isEqualTo("served wrong prices");
        assertThat(Instant.parse(entry.path("approval").path("changedAt").asText())).isNotNull();
        assertThat(entry.path("tier").asText()).isEqualTo("community");
        assertThat(entry.path("hotkey").isNull()).isTrue();
        assertThat(entry.path("contact").asText()).isEqualTo("ops@stub.example");
        assertThat(entry.path("docsUrl").asText()).isEqualTo(suspended.stub().url() + "/v1/docs");
        assertThat(entry.path("chainId").asInt()).isEqualTo(137);
        assertThat(Instant.parse(entry.path("registeredAt").asText())).isNotNull();
        assertThat(entry.path("status").path("online").isBoolean()).isTrue();
        assertThat(entry.path("status").path("consecutiveFailures").isInt()).isTrue();
        assertThat(entry.path("models").get(0).path("pricing").path("currency").asText()).isEqualTo("USDC");
        assertThat(entry.path("history")).extracting(h -> h.path("event").asText())
                .containsSubsequence("registered", "models_published", "online", "approved", "suspended");
        JsonNode last = entry.path("history").get(entry.path("history").size() - 1);
        assertThat(last.path("detail").asText()).isEqualTo("served wrong prices");
        assertThat(Instant.parse(last.path("at").asText())).isNotNull();

        assertThat(fixture.directoryEntry(pending.id()).path("approval").path("state").asText()).isEqualTo("pending");
        ConditionalGets.assertRoundTrip(baseUrl() + "/api/directory/providers", "no-cache");
        ConditionalGets.assertRoundTrip(baseUrl() + "/api/directory/providers/" + suspended.id(), "no-cache");
    }

    @Test
    void anUnknownProviderIsNotFound() {
        Http.Reply reply = Http.get(baseUrl() + "/api/directory/providers/prov-000000000000000000000000");

        ProviderRegistrationTest.assertProblem(reply, 404, "provider_not_found", null);
    }
}
