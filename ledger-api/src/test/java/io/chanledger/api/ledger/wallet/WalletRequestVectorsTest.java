package io.chanledger.api.ledger.wallet;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link WalletRequestMessage} against the shared table {@code vectors/wallet-request.json}, which
 * the web pages' signer ({@code web/src/wallet.ts}) is checked against too: the text of a
 * wallet-signed request changed on one side only fails one of the two.
 */
class WalletRequestVectorsTest {

    private static final JsonNode VECTORS = load();

    private static JsonNode load() {
        try (InputStream in = WalletRequestVectorsTest.class.getResourceAsStream("/vectors/wallet-request.json")) {
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static Stream<JsonNode> cases() {
        return StreamSupport.stream(VECTORS.path("cases").spliterator(), false);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void buildsAndSignsTheTextAsTheSharedTableSays(JsonNode vector) {
        WalletRequestMessage message = new WalletRequestMessage(vector.path("method").asText(),
                vector.path("path").asText(), vector.path("audience").asText(),
                WalletRequestMessage.bodyHash(vector.path("body").asText().getBytes(StandardCharsets.UTF_8)),
                vector.path("address").asText(), vector.path("chainId").asLong(), vector.path("contract").asText(),
                vector.path("timestamp").asText(), vector.path("nonce").asText());
        DigestSigner wallet = new DigestSigner(Hex.decode(VECTORS.path("privateKey").asText()));

        assertThat(message.bodyHash()).isEqualTo(vector.path("bodyHash").asText());
        assertThat(message.text()).isEqualTo(vector.path("text").asText());
        assertThat(wallet.address()).isEqualTo(vector.path("address").asText().toLowerCase());
        assertThat(Hex.encode(wallet.sign(message.digest()))).isEqualTo(vector.path("signature").asText());
    }

    @Test
    void theApiDocsShowTheTextOfACaseExactly() throws IOException {
        String api = Files.readString(Path.of("..", "docs", "api.md"), StandardCharsets.UTF_8);

        assertThat(api).contains("```\n" + VECTORS.path("cases").path(1).path("text").asText() + "\n```");
    }
}
