package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.domain.eip712.DigestSigner;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every malformed or missing field is a 400 that names it; none of them reaches the provider. */
class RegistrationFieldsTest extends LedgerIntegrationTest {

    static Stream<Arguments> malformed() {
        return Stream.of(
                invalid("name", b -> b.remove("name")),
                invalid("name", b -> b.put("name", "")),
                invalid("name", b -> b.put("name", 12)),
                invalid("name", b -> b.put("name", "x".repeat(101))),
                invalid("description", b -> b.remove("description")),
                invalid("apiUrl", b -> b.remove("apiUrl")),
                invalid("apiUrl", b -> b.put("apiUrl", "ftp://stub.example")),
                invalid("apiUrl", b -> b.put("apiUrl", "not a url")),
                invalid("apiUrl", b -> b.put("apiUrl", "https://user:pw@stub.example")),
                invalid("apiUrl", b -> b.put("apiUrl", "https://stub.example/?a=1")),
                invalid("providerAddress", b -> b.remove("providerAddress")),
                invalid("providerAddress", b -> b.put("providerAddress", "0x1234")),
                invalid("providerAddress", b -> b.put("providerAddress", "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")),
                invalid("category", b -> b.remove("category")),
                invalid("category", b -> b.put("category", "LLM")),
                invalid("category", b -> b.put("category", "crypto")),
                invalid("additionalCategories", b -> b.put("additionalCategories", "code")),
                invalid("additionalCategories", b -> b.putArray("additionalCategories").add("magic")),
                invalid("additionalCategories", b -> b.putArray("additionalCategories").add("llm")),
                invalid("tier", b -> b.put("tier", "gold")),
                invalid("hotkey", b -> b.put("tier", "bittensor")),
                invalid("hotkey", b -> b.put("tier", "bittensor").put("hotkey", "not-ss58").put("uid", 1)),
                invalid("uid", b -> b.put("tier", "bittensor").put("hotkey", "5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX")),
                invalid("uid", b -> b.put("tier", "bittensor").put("hotkey", "5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX")
                        .put("uid", -1)),
                invalid("hotkey", b -> b.put("hotkey", "5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX")),
                invalid("contact", b -> b.put("contact", "x".repeat(321))),
                invalid("docsUrl", b -> b.put("docsUrl", "javascript:alert(1)")),
                invalid("contactEmail", b -> b.put("contactEmail", "ops at acme")),
                invalid("contactEmail", b -> b.put("contactEmail", "ops@localhost")),
                invalid("contactEmail", b -> b.put("contactEmail", 7)),
                invalid("logoUrl", b -> b.put("logoUrl", "javascript:alert(1)")),
                invalid("logoUrl", b -> b.put("logoUrl", "data:image/png;base64,AAAA")),
                invalid("website", b -> b.put("website", "ftp://acme.example")),
                invalid("supportsStreaming", b -> b.put("supportsStreaming", "yes")),
                invalid("signature", b -> b.put("signature", "0x1234")),
                invalid("signature", b -> b.remove("signature")),
                invalid("nonce", b -> b.put("nonce", "short")),
                invalid("nonce", b -> b.put("nonce", "has spaces in it")),
                invalid("issuedAt", b -> b.put("issuedAt", "yesterday")),
                invalid("issuedAt", b -> b.remove("issuedAt")));
    }

    private static Arguments invalid(String field, Consumer<ObjectNode> edit) {
        return Arguments.of(field, edit);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("malformed")
    void aMalformedFieldIsRefusedByName(String field, Consumer<ObjectNode> edit) {
        DigestSigner wallet = Registrations.newWallet("fields");
        ObjectNode body = Registrations.body(wallet, "http://127.0.0.1:9", b -> { });
        edit.accept(body);

        Http.Reply reply = Registrations.post(baseUrl(), body);

        ProviderRegistrationTest.assertProblem(reply, 400, "invalid_field", field);
    }

    @org.junit.jupiter.api.Test
    void aBodyThatIsNotAnObjectIsRefused() {
        Http.Reply reply = Http.postJson(baseUrl() + "/api/directory/providers", "[1,2]");

        ProviderRegistrationTest.assertProblem(reply, 400, "malformed_body", null);
    }
}
