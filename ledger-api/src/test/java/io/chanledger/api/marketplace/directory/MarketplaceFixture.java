package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.api.support.Http;
import io.chanledger.domain.eip712.DigestSigner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Registers providers backed by stub servers and brings them where a test needs them (approved,
 * scored, offline). Model ids start with a token of this fixture, so filters can be checked on
 * its providers alone in the shared application.
 */
final class MarketplaceFixture implements AutoCloseable {

    record Registered(String id, DigestSigner wallet, StubProvider stub) {
    }

    final String token = "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    private final String baseUrl;
    private final List<StubProvider> stubs = new ArrayList<>();

    MarketplaceFixture(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    /** Registers a provider serving {@code models} (id suffix → name or null) under this fixture's token. */
    Registered register(Consumer<ObjectNode> edit, String... modelSuffixesAndNames) {
        return register(stub -> {
            for (int i = 0; i < modelSuffixesAndNames.length; i += 2) {
                stub.price(token + "-" + modelSuffixesAndNames[i], modelSuffixesAndNames[i + 1], "0.00015", "0.0006");
            }
        }, edit);
    }

    /** Registers a provider whose stub {@code prices} sets up (model ids should start with {@link #token}). */
    Registered register(Consumer<StubProvider> prices, Consumer<ObjectNode> edit) {
        DigestSigner wallet = Registrations.newWallet("fixture");
        StubProvider stub = new StubProvider(wallet.address());
        prices.accept(stub);
        stubs.add(stub);
        Http.Reply reply = Registrations.post(baseUrl, Registrations.body(wallet, stub.url(), edit));
        assertThat(reply.status()).as(reply.body()).isEqualTo(201);
        return new Registered(Registrations.idOf(wallet), wallet, stub);
    }

    void approve(Registered provider) {
        assertThat(Registrations.approve(baseUrl, provider.id()).status()).isEqualTo(200);
    }

    void score(Registered provider, String score) {
        Http.Reply reply = Registrations.admin(baseUrl, "PUT", "/api/admin/providers/" + provider.id() + "/score",
                "{\"score\":" + score + "}");
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    }

    JsonNode directoryEntry(String id) {
        Http.Reply reply = Http.get(baseUrl + "/api/directory/providers/" + id);
        return reply.status() == 200 ? reply.json() : null;
    }

    /** Waits until the directory shows the provider in the state {@code check} accepts. */
    void awaitEntry(Registered provider, java.util.function.Predicate<JsonNode> check) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
            JsonNode entry = directoryEntry(provider.id());
            return entry != null && check.test(entry);
        });
    }

    /** The ids of the providers {@code GET /api/mcp/providers} returns for {@code query} (plus this token). */
    List<String> listed(String query) {
        Http.Reply reply = Http.get(baseUrl + "/api/mcp/providers?model=" + token + (query.isEmpty() ? "" : "&" + query));
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        reply.json().path("providers").forEach(p -> ids.add(p.path("id").asText()));
        return ids;
    }

    @Override
    public void close() {
        stubs.forEach(StubProvider::close);
    }
}
