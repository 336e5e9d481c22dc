package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * {@code POST /api/validator/probe-alert}: an alert makes this service check the provider itself,
 * so it can hasten an unreachable provider's way out of the lists but never take an answering one
 * off them. A provider's own request to be checked again (as it sends on a restart) is answered by
 * the same check, which publishes its models and prices as they are now.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProbeAlertTest extends LedgerIntegrationTest {

    @Autowired
    MeterRegistry meters;

    private MarketplaceFixture fixture;
    private MarketplaceFixture.Registered healthy;
    private MarketplaceFixture.Registered failing;
    private MarketplaceFixture.Registered validated;
    private MarketplaceFixture.Registered pending;
    private MarketplaceFixture.Registered restarted;
    private MarketplaceFixture.Registered suspended;

    @BeforeAll
    void registerProviders() {
        fixture = new MarketplaceFixture(baseUrl());
        healthy = fixture.register(b -> { }, "healthy", null);
        failing = fixture.register(b -> { }, "failing", null);
        validated = fixture.register(b -> { }, "validated", null);
        pending = fixture.register(b -> { }, "pending", null);
        restarted = fixture.register(b -> { }, "restarted", null);
        suspended = fixture.register(b -> { }, "suspended", null);
        assertThat(Registrations.admin(baseUrl(), "POST", "/api/admin/providers/" + suspended.id() + "/suspend", "{}")
                .status()).isEqualTo(200);
        for (MarketplaceFixture.Registered provider : new MarketplaceFixture.Registered[]{healthy, failing, validated}) {
            fixture.approve(provider);
            fixture.awaitEntry(provider, e -> e.path("status").path("online").asBoolean());
        }
    }

    @AfterAll
    void stopProviders() {
        fixture.close();
    }

    /** The registry entry validators read for {@code provider}, once the registry lists it. */
    private JsonNode registryEntry(MarketplaceFixture.Registered provider) {
        AtomicReference<JsonNode> entry = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200)).until(() -> {
            JsonNode miners = Http.get(baseUrl() + "/api/validator/registry").json().path("miners");
            entry.set(StreamSupport.stream(miners.spliterator(), false)
                    .filter(m -> m.path("id").asText().equals(provider.id())).findFirst().orElse(null));
            return entry.get() != null;
        });
        return entry.get();
    }

    private static String alert(String providerId, String probeUrl, boolean reachable) {
        return "{\"providerId\":\"" + providerId + "\",\"probeUrl\":\"" + probeUrl + "\",\"reachable\":" + reachable + "}";
    }

    private Http.Reply send(String body) {
        return Reports.post(baseUrl() + "/api/validator/probe-alert", body);
    }

    private double alerts(String result) {
        Counter counter = meters.find("chan.marketplace.probe.alerts").tag("result", result).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void registryEntriesNameTheProtocolAndTheUrlToProbe() {
        JsonNode entry = registryEntry(healthy);

        assertThat(entry.path("protocol").asText()).isEqualTo("chan");
        assertThat(entry.path("apiUrl").asText()).isEqualTo(healthy.stub().url());
        assertThat(entry.path("probeUrl").asText()).isEqualTo(healthy.stub().url() + "/v1/models");
        assertThat(Http.get(entry.path("probeUrl").asText()).status()).as("the probe URL answers a plain GET")
                .isEqualTo(200);
    }

    @Test
    void anAlertAboutAHealthyProviderIsCheckedAndLeavesItOnline() {
        String probeUrl = registryEntry(healthy).path("probeUrl").asText();
        double reachable = alerts("reachable");
        double notProbed = alerts("not_probed");

        Http.Reply first = send(alert(healthy.id(), probeUrl, false));
        Http.Reply second = send(alert(healthy.id(), probeUrl, false));
        Http.Reply third = send(alert(healthy.id(), healthy.stub().url(), false));

        assertThat(first.status()).as(first.body()).isEqualTo(202);
        assertThat(first.json().path("probed").asBoolean()).isTrue();
        assertThat(first.json().path("reachable").asBoolean()).isTrue();
        assertThat(first.json().path("detail").asText()).contains("stays listed");
        for (Http.Reply again : new Http.Reply[]{second, third}) {
            assertThat(again.status()).isEqualTo(202);
            assertThat(again.json().path("probed").asBoolean()).as("checked once per cooldown").isFalse();
        }
        assertThat(alerts("reachable")).isEqualTo(reachable + 1);
        assertThat(alerts("not_probed")).isEqualTo(notProbed + 2);
        JsonNode entry = fixture.directoryEntry(healthy.id());
        assertThat(entry.path("status").path("online").asBoolean()).isTrue();
        assertThat(entry.path("status").path("consecutiveFailures").asInt()).isZero();
        assertThat(fixture.listed("")).contains(healthy.id());
    }

    @Test
    void anAlertAboutAProviderThatDoesNotAnswerIsCheckedAndRecordedAsAFailedCheck() {
        String probeUrl = registryEntry(failing).path("probeUrl").asText();
        failing.stub().down(true);

        Http.Reply reply = send(alert(failing.id(), probeUrl, false));

        assertThat(reply.status()).as(reply.body()).isEqualTo(202);
        assertThat(reply.json().path("probed").asBoolean()).isTrue();
        assertThat(reply.json().path("reachable").asBoolean()).isFalse();
        assertThat(reply.json().path("detail").asText()).contains("HTTP 503");
        fixture.awaitEntry(failing, e -> e.path("status").path("consecutiveFailures").asInt() > 0
                && e.path("status").path("lastError").asText().contains("HTTP 503"));
    }

    @Test
    void anAlertSayingTheProviderIsReachableChecksNothing() {
        Http.Reply reply = send(alert(validated.id(), validated.stub().url() + "/v1/models", true));

        assertThat(reply.status()).isEqualTo(202);
        assertThat(reply.json().path("probed").asBoolean()).isFalse();
        assertThat(reply.json().has("reachable")).isFalse();
    }

    @Test
    void aProvidersOwnRequestToBeCheckedAgainPublishesItsModelsAndPricesAsTheyAreNow() {
        // pending: not polled, so only the request makes the directory read its prices again
        String model = fixture.token + "-restarted";
        restarted.stub().price(model, null, "0.002", "0.008").price(fixture.token + "-added", null, "0.001", "0");
        double rechecks = alerts("recheck_reachable");

        Http.Reply reply = send(alert(restarted.id(), restarted.stub().url() + "/v1/pricing", true));

        assertThat(reply.status()).as(reply.body()).isEqualTo(202);
        assertThat(reply.json().path("probed").asBoolean()).isTrue();
        assertThat(reply.json().path("reachable").asBoolean()).isTrue();
        assertThat(reply.json().path("detail").asText()).contains("models and prices");
        assertThat(alerts("recheck_reachable")).isEqualTo(rechecks + 1);
        fixture.awaitEntry(restarted, e -> e.path("models").size() == 2);
        JsonNode entry = fixture.directoryEntry(restarted.id());
        assertThat(entry.path("models").toString()).contains(fixture.token + "-added", "\"0.002\"", "\"0.008\"");
        assertThat(entry.path("approval").path("state").asText()).isEqualTo("pending");

        Http.Reply again = send(alert(restarted.id(), restarted.stub().url() + "/v1/pricing/", true));
        assertThat(again.status()).isEqualTo(202);
        assertThat(again.json().path("probed").asBoolean()).as("once per cooldown").isFalse();
    }

    @Test
    void aSuspendedProvidersRequestToBeCheckedAgainIsRefused() {
        Reports.assertRefused(send(alert(suspended.id(), suspended.stub().url() + "/v1/pricing", true)), 404,
                "provider_not_found");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "not JSON|`{\"providerId\"`|400|malformed_body|",
            "no provider|`{\"probeUrl\":\"URL\",\"reachable\":false}`|400|invalid_field|providerId",
            "no probe URL|`{\"providerId\":\"ID\",\"reachable\":false}`|400|invalid_field|probeUrl",
            "reachable as a string|`{\"providerId\":\"ID\",\"probeUrl\":\"URL\",\"reachable\":\"false\"}`|400|invalid_field|reachable",
            "no reachable|`{\"providerId\":\"ID\",\"probeUrl\":\"URL\"}`|400|invalid_field|reachable",
            "another provider's URL|`{\"providerId\":\"ID\",\"probeUrl\":\"http://127.0.0.1:1/v1/models\",\"reachable\":false}`|400|invalid_field|probeUrl",
            "an unknown provider|`{\"providerId\":\"prov-000000000000000000000000\",\"probeUrl\":\"URL\",\"reachable\":false}`|404|provider_not_found|",
            "a provider that is not listed|`{\"providerId\":\"PENDING\",\"probeUrl\":\"URL\",\"reachable\":false}`|404|provider_not_found|"})
    void anAlertBreakingARuleIsRefusedWithAMessage(String rule, String body, int status, String code, String field) {
        String filled = body.replace("PENDING", pending.id()).replace("ID", validated.id())
                .replace("URL", validated.stub().url() + "/v1/models");

        JsonNode problem = Reports.assertRefused(send(filled), status, code);

        if (field != null) {
            assertThat(problem.path("field").asText()).isEqualTo(field);
        }
    }

    @Test
    void eachClientAddressHasItsOwnLimit() {
        String client = Reports.newClient();
        String body = alert(validated.id(), validated.stub().url() + "/v1/models", true);
        for (int i = 0; i < 5; i++) {
            assertThat(Reports.post(baseUrl() + "/api/validator/probe-alert", client, "application/json", body).status())
                    .isEqualTo(202);
        }

        Http.Reply limited = Reports.post(baseUrl() + "/api/validator/probe-alert", client, "application/json", body);

        Reports.assertRefused(limited, 429, "rate_limited");
        assertThat(send(body).status()).as("another client").isEqualTo(202);
    }
}
