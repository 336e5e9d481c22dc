package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestNames;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ProviderRegistrationTest extends LedgerIntegrationTest {

    private DigestSigner wallet;
    private StubProvider stub;

    @BeforeEach
    void startStub() {
        wallet = Registrations.newWallet("registrant");
        stub = new StubProvider(wallet.address()).price("stub-chat-small", "0.00015", "0.0006")
                .price("stub-chat-large", "0.00375", "0.015");
    }

    @AfterEach
    void stopStub() {
        stub.close();
    }

    private Http.Reply register(ObjectNode body) {
        return Registrations.post(baseUrl(), body);
    }

    private ObjectNode body() {
        return Registrations.body(wallet, stub.url(), b -> { });
    }

    static void assertProblem(Http.Reply reply, int status, String code, String field) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(status);
        assertThat(reply.contentType()).startsWith("application/problem+json");
        JsonNode problem = reply.json();
        assertThat(problem.path("code").asText()).isEqualTo(code);
        assertThat(problem.path("detail").asText()).isNotBlank();
        assertThat(problem.path("error").asText()).as("the message clients show from data.error")
                .isEqualTo(problem.path("detail").asText());
        if (field != null) {
            assertThat(problem.path("field").asText()).isEqualTo(field);
        }
        assertThat(reply.body()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    private JsonNode directoryEntry(String id) {
        Http.Reply reply = Http.get(baseUrl() + "/api/directory/providers/" + id);
        return reply.status() == 200 ? reply.json() : null;
    }

    @Test
    void aCommunityProviderWithAValidSignatureIsRegisteredAndWaitsForApproval() {
        Http.Reply reply = register(body());

        assertThat(reply.status()).as(reply.body()).isEqualTo(201);
        String id = Registrations.idOf(wallet);
        JsonNode outcome = reply.json();
        assertThat(outcome.path("id").asText()).isEqualTo(id);
        assertThat(outcome.path("providerAddress").asText()).isEqualTo(Hex.toChecksumAddress(wallet.address()));
        assertThat(outcome.path("approval").asText()).isEqualTo("pending");
        assertThat(outcome.path("models").asInt()).isEqualTo(2);
        assertThat(reply.raw().headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/" + id));
        assertThat(stub.pricingCalls()).isEqualTo(1);

        await().atMost(Duration.ofSeconds(10)).until(() -> directoryEntry(id) != null);
        JsonNode entry = directoryEntry(id);
        assertThat(entry.path("approval").path("state").asText()).isEqualTo("pending");
        assertThat(entry.path("tier").asText()).isEqualTo("community");
        assertThat(entry.path("contact").asText()).isEqualTo("ops@stub.example");
        assertThat(entry.path("apiUrl").asText()).isEqualTo(stub.url());
        assertThat(entry.path("models")).extracting(JsonNode::toString).asString().contains("stub-chat-large");
        assertThat(Http.get(baseUrl() + "/api/mcp/providers?online=false&model=" + wallet.address()).json()
                .path("count").asInt()).isZero();
        assertThat(Http.get(baseUrl() + "/api/mcp/providers?online=false").body()).doesNotContain(id);
    }

    @Test
    void anApprovedProviderIsListed() {
        assertThat(register(body()).status()).isEqualTo(201);
        String id = Registrations.idOf(wallet);
        await().atMost(Duration.ofSeconds(10)).until(() -> directoryEntry(id) != null);

        Http.Reply approved = Registrations.approve(baseUrl(), id);

        assertThat(approved.status()).as(approved.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> Http.get(baseUrl() + "/api/mcp/providers?model=stub-chat").body().contains(id));
    }

    @Test
    void aBittensorMinerIsListedWithoutWaitingForAnAdmin() {
        ObjectNode body = Registrations.body(wallet, stub.url(), b -> {
            b.put("tier", "bittensor");
            b.put("hotkey", "5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX");
            b.put("uid", 42);
        });

        Http.Reply reply = register(body);

        assertThat(reply.status()).as(reply.body()).isEqualTo(201);
        assertThat(reply.json().path("approval").asText()).isEqualTo("approved");
        String id = Registrations.idOf(wallet);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> Http.get(baseUrl() + "/api/mcp/providers?tier=bittensor").body().contains(id));
    }

    @Test
    void refusesARegistrationSignedByAnotherWallet() {
        DigestSigner stranger = Registrations.newWallet("stranger");
        ObjectNode body = body();
        Registrations.sign(stranger, body);

        assertProblem(register(body), 400, "wrong_signer", "signature");
        assertThat(stub.pricingCalls()).isZero();
    }

    @Test
    void refusesASignatureOverOtherValues() {
        ObjectNode body = body();
        body.put("apiUrl", stub.url() + "/elsewhere");

        assertProblem(register(body), 400, "wrong_signer", "signature");
    }

    @Test
    void refusesAReplayedRegistrationAfterAFailedConnectionTest() {
        ObjectNode body = body();
        stub.down(true);
        assertProblem(register(body), 422, "connection_test_failed", "apiUrl");

        stub.down(false);
        assertProblem(register(body), 409, "nonce_already_used", "nonce");
        assertThat(directoryEntry(Registrations.idOf(wallet))).isNull();
    }

    @Test
    void refusesAReplayOfASuccessfulRegistration() {
        ObjectNode body = body();
        assertThat(register(body).status()).isEqualTo(201);

        assertProblem(register(body), 409, "address_already_registered", "providerAddress");
    }

    @Test
    void refusesASecondRegistrationOfTheSameAddress() {
        assertThat(register(body()).status()).isEqualTo(201);

        Http.Reply again = register(Registrations.body(wallet, stub.url(), b -> b.put("name", "Another name")));

        assertProblem(again, 409, "address_already_registered", "providerAddress");
        assertThat(again.json().path("providerId").asText()).isEqualTo(Registrations.idOf(wallet));
        assertThat(stub.pricingCalls()).isEqualTo(1);
    }

    @Test
    void refusesAnOldSignature() {
        ObjectNode body = Registrations.body(wallet, stub.url(),
                b -> b.put("issuedAt", Instant.now().minus(Duration.ofHours(1)).toString()));

        assertProblem(register(body), 400, "signature_expired", "issuedAt");
    }

    @Test
    void refusesASignatureDatedInTheFuture() {
        ObjectNode body = Registrations.body(wallet, stub.url(),
                b -> b.put("issuedAt", Instant.now().plus(Duration.ofHours(1)).toString()));

        assertProblem(register(body), 400, "signature_from_the_future", "issuedAt");
    }

    @Test
    void theConnectionTestFailsWhenThePricingNamesAnotherAddress() {
        stub.namesAddress(Registrations.newWallet("someone-else").address());

        Http.Reply reply = register(body());

        assertProblem(reply, 422, "connection_test_failed", "apiUrl");
        assertThat(reply.json().path("reason").asText()).contains("not the registered");
    }

    @Test
    void theConnectionTestFailsWithoutModels() {
        stub.withoutModels();

        Http.Reply reply = register(body());

        assertProblem(reply, 422, "connection_test_failed", "apiUrl");
        assertThat(reply.json().path("reason").asText()).contains("no models");
    }

    @Test
    void theConnectionTestFailsWhenNothingListens() {
        String url = stub.url();
        stub.close();

        assertProblem(register(Registrations.body(wallet, url, b -> { })), 422, "connection_test_failed", "apiUrl");
    }

    @Test
    void theConnectionTestFailsOnAnErrorStatus() {
        stub.down(true);

        Http.Reply reply = register(body());

        assertProblem(reply, 422, "connection_test_failed", "apiUrl");
        assertThat(reply.json().path("reason").asText()).contains("HTTP 503");
    }

    @Test
    void theConnectionTestReportsDocsMissingWhenTheProviderHasNoDocs() {
        stub.docs(null);

        Http.Reply reply = register(body());

        assertProblem(reply, 422, "connection_test_failed", "apiUrl");
        assertThat(reply.json().path("check").asText()).isEqualTo("docs_missing");
        assertThat(reply.json().path("reason").asText()).startsWith("docs_missing: /v1/docs answered HTTP 404");
        assertThat(reply.json().path("error").asText()).contains("docs_missing");
        assertThat(directoryEntry(Registrations.idOf(wallet))).isNull();
    }

    @Test
    void theConnectionTestReportsDocsMissingWhenTheDocsAreShorterThan100Characters() {
        stub.docs("  " + "d".repeat(99) + "\n");

        Http.Reply reply = register(body());

        assertProblem(reply, 422, "connection_test_failed", "apiUrl");
        assertThat(reply.json().path("check").asText()).isEqualTo("docs_missing");
        assertThat(reply.json().path("reason").asText()).contains("99 characters");
    }

    @Test
    void docsOf100CharactersAreEnough() {
        stub.docs("d".repeat(100));

        Http.Reply reply = register(body());

        assertThat(reply.status()).as(reply.body()).isEqualTo(201);
    }

    /**
     * The host is resolved once, and every call of the connection test goes to the address it
     * answered, with the name in the Host header, though the name answers another address later.
     */
    @Test
    void theConnectionTestCallsTheAddressCheckedWithTheNameAsHost() {
        String name = TestNames.name("pinned", List.of(TestNames.address("127.0.0.1")),
                List.of(TestNames.address("127.0.0.2")));
        try (StubProvider elsewhere = new StubProvider(wallet.address(),
                new InetSocketAddress(TestNames.address("127.0.0.2"), stub.port()))) {
            String apiUrl = "http://" + name + ":" + stub.port();

            Http.Reply reply = register(Registrations.body(wallet, apiUrl, b -> { }));

            assertThat(reply.status()).as(reply.body()).isEqualTo(201);
            assertThat(stub.hosts()).as("pricing, docs and the chat probe").hasSize(3)
                    .containsOnly(name + ":" + stub.port());
            assertThat(elsewhere.requests()).isZero();
            assertThat(TestNames.lookups(name)).isEqualTo(1);
        }
    }

    @Test
    void aSecondProviderUnderAnExistingNameWaitsForTheOperatorFlaggedWithTheFirst() {
        String name = "Acme LLM " + UUID.randomUUID().toString().substring(0, 8);
        assertThat(register(Registrations.body(wallet, stub.url(), b -> b.put("name", name))).status()).isEqualTo(201);
        String first = Registrations.idOf(wallet);
        DigestSigner namesake = Registrations.newWallet("namesake");
        Logger registrations = (Logger) LoggerFactory.getLogger(ProviderRegistration.class);
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        registrations.addAppender(log);
        Http.Reply reply;
        try (StubProvider second = new StubProvider(namesake.address()).price("stub-chat-small", "0.0001", "0.0002")) {
            reply = register(Registrations.body(namesake, second.url(), b -> {
                b.put("name", "  " + name.toUpperCase(Locale.ROOT) + " ");
                b.put("tier", "bittensor");
                b.put("hotkey", "5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX");
                b.put("uid", 7);
            }));
        } finally {
            registrations.detachAppender(log);
        }

        assertThat(reply.status()).as(reply.body()).isEqualTo(201);
        assertThat(reply.json().path("approval").asText()).as("a bittensor miner, but not listed at once")
                .isEqualTo("pending");
        String id = Registrations.idOf(namesake);
        assertThat(log.list).filteredOn(line -> line.getLevel() == Level.WARN)
                .singleElement().satisfies(line -> assertThat(line.getFormattedMessage()).contains(id).contains(first));
        await().atMost(Duration.ofSeconds(10)).until(() -> directoryEntry(id) != null);
        assertThat(directoryEntry(id).path("duplicateNameOf").asText()).isEqualTo(first);
        assertThat(directoryEntry(first).path("duplicateNameOf").isNull()).isTrue();
        JsonNode listed = Http.get(baseUrl() + "/api/directory/providers").json().path("providers");
        assertThat(listed).filteredOn(entry -> entry.path("id").asText().equals(id)).singleElement()
                .satisfies(entry -> assertThat(entry.path("duplicateNameOf").asText()).isEqualTo(first));
        assertThat(Http.get(baseUrl() + "/api/mcp/providers?online=false").body()).doesNotContain(id);
    }
}
