package io.chanledger.api.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Token counting, prices and request parsing: the arithmetic every paid request rests on. */
class MeteringRulesTest {

    private final ObjectMapper json = new ObjectMapper();

    private static GatewayProperties properties(List<GatewayProperties.Model> models, String key) {
        return new GatewayProperties(true, "p", "", key, null, null, null, 64, Duration.ofMinutes(10), false, models,
                null, null);
    }

    @Test
    void aTokenIsARunOfLettersAndDigitsOrOneOtherVisibleCharacter() {
        assertThat(Tokenizer.count("Hello, world!")).isEqualTo(4);
        assertThat(Tokenizer.count("  spaced   out\n")).isEqualTo(2);
        assertThat(Tokenizer.count("3.14")).isEqualTo(3);
        assertThat(Tokenizer.count("naïve café")).isEqualTo(2);
        assertThat(Tokenizer.count("")).isZero();
    }

    @Test
    void piecesCarryOneTokenEachAndGiveTheTextBack() {
        String text = "Echo: hello,  world ";
        List<String> pieces = Tokenizer.pieces(text);

        assertThat(String.join("", pieces)).isEqualTo(text);
        assertThat(pieces).allMatch(p -> Tokenizer.count(p) == 1);
        assertThat(pieces).hasSize((int) Tokenizer.count(text));
        assertThat(Tokenizer.truncate(text, 3)).isEqualTo("Echo: hello");
    }

    @Test
    void costIsThePricedTokensPerThousandRoundedDown() {
        PriceList prices = PriceList.of(properties(List.of(
                new GatewayProperties.Model("m", null, "0.00375", "0.015", 7L)), null), 0);
        PriceList.ModelRate rate = prices.model("m").orElseThrow();

        assertThat(rate.inputPer1k()).isEqualTo(BigInteger.valueOf(3_750));
        assertThat(rate.cost(1_000, 1_000)).isEqualTo(BigInteger.valueOf(18_750));
        assertThat(rate.cost(1, 0)).isEqualTo(BigInteger.valueOf(3));
        assertThat(rate.cost(1, 1)).isEqualTo(BigInteger.valueOf(18));
        assertThat(rate.name()).isEqualTo("m");
        assertThat(rate.created()).isEqualTo(7);
    }

    @Test
    void aPriceListRefusesPricesThatAreNotUsdcAmounts() {
        assertThatThrownBy(() -> PriceList.of(properties(List.of(
                new GatewayProperties.Model("m", null, "0.0000001", "1", null)), null), 0))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("input-per-1k-tokens");
        assertThatThrownBy(() -> PriceList.of(properties(List.of(), null), 0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aRequestWithoutALimitGetsTheDefaultWhichIsForwarded() throws Exception {
        ChatRequest request = ChatRequest.parse(json.readTree(
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"a b\"}]}"), 64);

        assertThat(request.maxTokens()).isEqualTo(64);
        assertThat(request.inputTokens()).isEqualTo(2);
        assertThat(request.upstreamBody().path("max_tokens").asLong()).isEqualTo(64);
        assertThat(request.upstreamBody().has("stream_options")).isFalse();
    }

    @Test
    void theNewerLimitFieldWinsAndIsLeftAsItIs() throws Exception {
        ChatRequest request = ChatRequest.parse(json.readTree("{\"model\":\"m\",\"max_completion_tokens\":9,"
                + "\"max_tokens\":99,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}"), 64);

        assertThat(request.maxTokens()).isEqualTo(9);
        assertThat(request.upstreamBody().path("max_tokens").asLong()).isEqualTo(99);
    }

    @Test
    void textPartsOfMessagesAreCountedAndOtherPartsAreNot() throws Exception {
        ChatRequest request = ChatRequest.parse(json.readTree("{\"model\":\"m\",\"stream\":true,\"messages\":["
                + "{\"role\":\"system\",\"content\":\"be kind\"},{\"role\":\"user\",\"content\":["
                + "{\"type\":\"text\",\"text\":\"what is this\"},{\"type\":\"image_url\",\"image_url\":{\"url\":\"x\"}}]}]}"), 64);

        assertThat(request.inputTokens()).isEqualTo(5);
        assertThat(request.lastUserText()).isEqualTo("what is this");
        assertThat(request.stream()).isTrue();
        assertThat(request.upstreamBody().path("stream_options").path("include_usage").asBoolean()).isTrue();
        assertThat(request.clientWantsUsage()).isFalse();
    }

    @Test
    void malformedRequestsAreRefusedWithAReason() throws Exception {
        for (String body : List.of("[]", "{\"messages\":[]}", "{\"model\":\"m\",\"messages\":[]}",
                "{\"model\":\"m\",\"messages\":[{\"content\":\"x\"}]}",
                "{\"model\":\"m\",\"max_tokens\":0,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}",
                "{\"model\":\"m\",\"max_tokens\":1.5,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}",
                "{\"model\":\"m\",\"stream\":\"yes\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}")) {
            assertThatThrownBy(() -> ChatRequest.parse(json.readTree(body), 64)).as(body)
                    .isInstanceOfSatisfying(GatewayProblem.class, p -> assertThat(p.code()).isEqualTo("invalid_request"));
        }
    }

    @Test
    void theProviderKeyIsNeverRepeatedInErrorsNorShownInSettings() {
        String secret = "0x" + "zz".repeat(32);
        assertThatThrownBy(() -> ProviderIdentity.load(properties(List.of(), secret)))
                .hasMessageNotContaining("zz");
        String key = "0x715a48a4b5929015260802e728408f658958759273c7dea32bb2b0540ca13e2e";
        ProviderIdentity identity = ProviderIdentity.load(properties(List.of(), key));
        assertThat(identity.toString()).doesNotContain(key.substring(2));
        assertThat(properties(List.of(), key).toString()).doesNotContain(key.substring(2));
        assertThat(identity.address()).matches("0x[0-9a-f]{40}");
    }
}
