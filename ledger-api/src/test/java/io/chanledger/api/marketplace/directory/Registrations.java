package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.TestKeys;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.provider.ProviderIds;
import io.chanledger.domain.provider.RegistrationMessage;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import java.util.function.Consumer;

/** Registration bodies signed the way a provider's wallet signs them (EIP-191 personal_sign). */
final class Registrations {

    static final String ADMIN_TOKEN = "test-admin-token";
    private static final ObjectMapper JSON = new ObjectMapper();

    private Registrations() {
    }

    /** A fresh wallet for this run: labels differ per call, so nothing collides across tests. */
    static DigestSigner newWallet(String label) {
        return TestKeys.wallet(label + "-" + UUID.randomUUID());
    }

    static String idOf(DigestSigner wallet) {
        return ProviderIds.forAddress(wallet.address());
    }

    /** A complete community registration signed by {@code wallet}, changed by {@code edit} before signing. */
    static ObjectNode body(DigestSigner wallet, String apiUrl, Consumer<ObjectNode> edit) {
        ObjectNode body = JSON.createObjectNode();
        body.put("name", "Stub " + wallet.address().substring(2, 8));
        body.put("description", "A stub provider on loopback");
        body.put("apiUrl", apiUrl);
        body.put("providerAddress", Hex.toChecksumAddress(wallet.address()));
        body.put("category", "llm");
        body.putArray("additionalCategories").add("code");
        body.put("tier", "community");
        body.put("contact", "ops@stub.example");
        body.put("docsUrl", apiUrl + "/v1/docs");
        body.put("nonce", "n" + UUID.randomUUID().toString().replace("-", "").substring(0, 20));
        body.put("issuedAt", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        edit.accept(body);
        return sign(wallet, body);
    }

    static ObjectNode sign(DigestSigner wallet, ObjectNode body) {
        RegistrationMessage message = new RegistrationMessage(body.path("providerAddress").asText(),
                body.path("apiUrl").asText(), 137, body.path("nonce").asText(), body.path("issuedAt").asText());
        body.put("signature", Hex.encode(wallet.sign(message.digest())));
        return body;
    }

    static Http.Reply post(String baseUrl, ObjectNode body) {
        return Http.postJson(baseUrl + "/api/directory/providers", body.toString());
    }

    /** Posted by {@code client}, as the trusted proxy of the tests' settings names it in X-Forwarded-For. */
    static Http.Reply post(String baseUrl, ObjectNode body, String client) {
        return Http.send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/directory/providers"))
                .header("Content-Type", "application/json")
                .header("X-Forwarded-For", client)
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())));
    }

    static Http.Reply admin(String baseUrl, String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Authorization", "Bearer " + ADMIN_TOKEN)
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        return Http.send(request);
    }

    static Http.Reply approve(String baseUrl, String providerId) {
        return admin(baseUrl, "POST", "/api/admin/providers/" + providerId + "/approve", null);
    }
}
