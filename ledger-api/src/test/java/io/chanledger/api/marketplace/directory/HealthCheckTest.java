package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The test profile polls every 300 ms and takes a provider offline after 2 failed checks in a
 * row; the waits below allow many times that.
 */
class HealthCheckTest extends LedgerIntegrationTest {

    private MarketplaceFixture fixture;
    private MarketplaceFixture.Registered provider;

    @BeforeEach
    void registerAndApprove() {
        fixture = new MarketplaceFixture(baseUrl());
        provider = fixture.register(b -> { }, "health", null);
        fixture.approve(provider);
        fixture.awaitEntry(provider, e -> e.path("approval").path("state").asText().equals("approved")
                && e.path("status").path("online").asBoolean());
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private static List<String> events(JsonNode entry) {
        return StreamSupport.stream(entry.path("history").spliterator(), false).map(h -> h.path("event").asText())
                .toList();
    }

    @Test
    void aProviderThatStopsAnsweringGoesOfflineAndComesBack() {
        assertThat(fixture.listed("")).containsExactly(provider.id());

        provider.stub().down(true);

        // each side goes down after its own run of failed checks: wait for both
        fixture.awaitEntry(provider, e -> !e.path("status").path("online").asBoolean()
                && events(e).contains("inference_offline"));
        JsonNode offline = fixture.directoryEntry(provider.id());
        assertThat(offline.path("status").path("consecutiveFailures").asInt()).isGreaterThanOrEqualTo(2);
        assertThat(offline.path("status").path("lastError").asText()).contains("HTTP 503");
        // a provider that does not answer at all is down on both sides, each after its run of failed checks
        // (the two sides are checked by separate probes, so either may be recorded first)
        List<String> down = events(offline);
        assertThat(down.subList(down.size() - 2, down.size())).containsExactlyInAnyOrder("offline", "inference_offline");
        assertThat(fixture.listed("")).isEmpty();
        assertThat(fixture.listed("online=false")).containsExactly(provider.id());

        provider.stub().down(false);

        fixture.awaitEntry(provider, e -> e.path("status").path("online").asBoolean());
        JsonNode back = fixture.directoryEntry(provider.id());
        assertThat(back.path("status").path("consecutiveFailures").asInt()).isZero();
        List<String> history = events(back);
        int wentDown = Math.max(history.lastIndexOf("offline"), history.lastIndexOf("inference_offline"));
        assertThat(history.subList(wentDown + 1, history.size())).contains("online", "inference_online");
        assertThat(events(back).stream().filter("offline"::equals).count()).isEqualTo(1);
        assertThat(fixture.listed("")).containsExactly(provider.id());
    }

    @Test
    void aProperProviderIsOnlineWithItsInferenceSideUpAndItsProbesSendNoVoucher() {
        JsonNode entry = fixture.directoryEntry(provider.id());
        assertThat(entry.path("status").path("online").asBoolean()).isTrue();
        assertThat(entry.path("status").path("inferenceOnline").asBoolean()).isTrue();
        assertThat(entry.path("status").path("inferenceError").isNull()).isTrue();
        assertThat(events(entry)).contains("inference_online");
        JsonNode listed = agentEntry(provider.id(), "");
        assertThat(listed.path("status").path("online").asBoolean()).isTrue();
        assertThat(listed.path("status").path("inferenceOnline").asBoolean()).isTrue();
        assertThat(provider.stub().chatCalls()).isPositive();
        assertThat(provider.stub().chatCallsWithVoucher()).isZero();
    }

    @Test
    void aProviderWhoseDocsGoMissingIsNotListedAsOnlineUntilTheyAreBack() {
        provider.stub().docs("too short to tell an agent anything");

        awaitInferenceDown();
        JsonNode offline = fixture.directoryEntry(provider.id());
        assertThat(offline.path("status").path("inferenceError").asText()).startsWith("docs_missing:")
                .contains("35 characters");
        assertThat(offline.path("history").get(offline.path("history").size() - 1).path("event").asText())
                .isEqualTo("inference_offline");
        assertThat(offline.path("history").get(offline.path("history").size() - 1).path("detail").asText())
                .startsWith("docs_missing:");
        assertThat(fixture.listed("")).isEmpty();

        provider.stub().docs(null);
        fixture.awaitEntry(provider, e -> e.path("status").path("inferenceError").asText()
                .startsWith("docs_missing: /v1/docs answered HTTP 404"));
        assertThat(fixture.listed("")).isEmpty();

        provider.stub().docs("Send chat completions with an X-CHAN-Voucher header; prices are at /v1/pricing, "
                + "per 1,000 tokens, in USDC.");

        fixture.awaitEntry(provider, e -> e.path("status").path("online").asBoolean());
        assertThat(fixture.listed("")).containsExactly(provider.id());
    }

    /**
     * Pricing answers, but the chat endpoint serves without payment, is broken, or asks for payment
     * without saying how: agents could not pay it, so it is not online for them, and shown apart.
     */
    @ParameterizedTest
    @EnumSource(value = StubProvider.ChatAnswer.class, names = {"SERVED_UNPAID", "BROKEN",
            "PAYMENT_REQUIRED_WITHOUT_TERMS"})
    void aProviderWhoseChatEndpointDoesNotAskForPaymentIsNotOnlineForAgents(StubProvider.ChatAnswer answer) {
        provider.stub().chat(answer);

        awaitInferenceDown();
        JsonNode entry = fixture.directoryEntry(provider.id());
        assertThat(entry.path("status").path("inferenceError").asText()).startsWith("chat_probe: /v1/chat/completions");
        assertThat(entry.path("status").path("consecutiveFailures").asInt()).as("the pricing side answers").isZero();
        assertThat(events(entry)).endsWith("inference_offline");
        assertThat(fixture.listed("")).as("the agents' default list").isEmpty();
        JsonNode all = agentEntry(provider.id(), "online=false");
        assertThat(all.path("status").path("online").asBoolean()).isFalse();
        assertThat(all.path("status").path("inferenceOnline").asBoolean()).isFalse();
        assertThat(provider.stub().chatCallsWithVoucher()).isZero();

        provider.stub().chat(StubProvider.ChatAnswer.PAYMENT_REQUIRED);

        fixture.awaitEntry(provider, e -> e.path("status").path("online").asBoolean());
        assertThat(fixture.directoryEntry(provider.id()).path("status").path("inferenceOnline").asBoolean()).isTrue();
        assertThat(fixture.listed("")).containsExactly(provider.id());
    }

    @Test
    void aProviderRegisteredWithABrokenChatEndpointIsNotOnlineForAgentsUntilItIsRepaired() {
        MarketplaceFixture.Registered broken = fixture.register(stub -> {
            stub.price(fixture.token + "-broken", "0.00015", "0.0006");
            stub.chat(StubProvider.ChatAnswer.BROKEN);
        }, b -> { });
        fixture.approve(broken);
        String checked = fixture.directoryEntry(broken.id()).path("status").path("lastChecked").asText();
        fixture.awaitEntry(broken, e -> !e.path("status").path("lastChecked").asText().equals(checked));

        JsonNode entry = fixture.directoryEntry(broken.id());
        assertThat(entry.path("status").path("online").asBoolean()).isFalse();
        assertThat(entry.path("status").path("inferenceOnline").asBoolean()).isFalse();
        assertThat(entry.path("status").path("inferenceError").asText()).contains("HTTP 500");
        assertThat(fixture.listed("")).containsExactly(provider.id());

        broken.stub().chat(StubProvider.ChatAnswer.PAYMENT_REQUIRED);

        fixture.awaitEntry(broken, e -> e.path("status").path("online").asBoolean());
        assertThat(fixture.listed("")).containsExactlyInAnyOrder(provider.id(), broken.id());
    }

    /** Waits until the inference side went down after its run of failed checks, the pricing side still up. */
    private void awaitInferenceDown() {
        fixture.awaitEntry(provider, e -> !e.path("status").path("inferenceOnline").asBoolean());
        JsonNode entry = fixture.directoryEntry(provider.id());
        assertThat(entry.path("status").path("online").asBoolean()).isFalse();
    }

    /** The provider's entry in {@code GET /api/mcp/providers} for {@code query}. */
    private JsonNode agentEntry(String id, String query) {
        Http.Reply reply = Http.get(baseUrl() + "/api/mcp/providers?model=" + fixture.token
                + (query.isEmpty() ? "" : "&" + query));
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        for (JsonNode entry : reply.json().path("providers")) {
            if (entry.path("id").asText().equals(id)) {
                return entry;
            }
        }
        throw new AssertionError("provider " + id + " not in " + reply.body());
    }

    @Test
    void aPriceChangeIsPublishedOnceAndUnchangedPollsRecordNothing() {
        JsonNode before = fixture.directoryEntry(provider.id());
        String lastChecked = before.path("status").path("lastChecked").asText();
        fixture.awaitEntry(provider, e -> !e.path("status").path("lastChecked").asText().equals(lastChecked));
        assertThat(events(fixture.directoryEntry(provider.id()))).isEqualTo(events(before));

        provider.stub().price(fixture.token + "-health", "0.001", "0.002");

        fixture.awaitEntry(provider, e -> e.path("models").get(0).path("pricing").path("inputPer1kTokens").asText()
                .equals("0.001"));
        JsonNode after = fixture.directoryEntry(provider.id());
        assertThat(after.path("models").get(0).path("pricing").path("outputPer1kTokens").asText()).isEqualTo("0.002");
        assertThat(events(after).stream().filter("models_published"::equals).count()).isEqualTo(2);
        String checked = after.path("status").path("lastChecked").asText();
        fixture.awaitEntry(provider, e -> !e.path("status").path("lastChecked").asText().equals(checked));
        assertThat(events(fixture.directoryEntry(provider.id()))).isEqualTo(events(after));
    }

    @Test
    void aSuspendedProviderIsNoLongerPolled() {
        MarketplaceFixture.Registered witness = fixture.register(b -> { }, "witness", null);
        fixture.approve(witness);
        Registrations.admin(baseUrl(), "POST", "/api/admin/providers/" + provider.id() + "/suspend", null);
        fixture.awaitEntry(provider, e -> e.path("approval").path("state").asText().equals("suspended"));
        awaitRounds(witness, 2);
        int calls = provider.stub().pricingCalls();
        String lastChecked = fixture.directoryEntry(provider.id()).path("status").path("lastChecked").asText();

        awaitRounds(witness, 3);

        assertThat(provider.stub().pricingCalls()).isEqualTo(calls);
        assertThat(fixture.directoryEntry(provider.id()).path("status").path("lastChecked").asText())
                .isEqualTo(lastChecked);
    }

    /** Waits until the witness has been checked {@code rounds} more times: that many rounds ran meanwhile. */
    private void awaitRounds(MarketplaceFixture.Registered witness, int rounds) {
        for (int i = 0; i < rounds; i++) {
            JsonNode entry = fixture.directoryEntry(witness.id());
            String checked = entry == null ? "" : entry.path("status").path("lastChecked").asText();
            fixture.awaitEntry(witness, e -> !e.path("status").path("lastChecked").asText().equals(checked)
                    && e.path("approval").path("state").asText().equals("approved"));
        }
    }
}
