package io.chanledger.api.provider.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.knuddels.jtokkit.api.EncodingType;
import io.chanledger.api.provider.ProviderIdentity;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Token counting, prices and request parsing: the arithmetic every paid request rests on. */
class MeteringRulesTest {

    private final ObjectMapper json = new ObjectMapper();

    private static GatewayProperties properties(List<GatewayProperties.Model> models, String key) {
        return new GatewayProperties("p", "", key, null, null, null, Duration.ofMinutes(10), false, models);
    }

    private ChatRequest parse(String body) {
        return ChatRequest.parse(body.getBytes(StandardCharsets.UTF_8), json);
    }

    private static PriceList.ModelRate rate(String input, String output) {
        return PriceList.of(properties(List.of(new GatewayProperties.Model("m", null, input, output, 7L)), null), 0)
                .model("m").orElseThrow();
    }

    @Test
    void tokensAreCountedWithTheEncodingOfTheModelsFamily() {
        assertThat(Tokenizer.encodingOf("gpt-4o-mini")).isEqualTo(EncodingType.O200K_BASE);
        assertThat(Tokenizer.encodingOf("gpt-4o-2024-08-06")).isEqualTo(EncodingType.O200K_BASE);
        assertThat(Tokenizer.encodingOf("gpt-4.1-nano")).isEqualTo(EncodingType.O200K_BASE);
        assertThat(Tokenizer.encodingOf("o3-mini")).isEqualTo(EncodingType.O200K_BASE);
        assertThat(Tokenizer.encodingOf("openai/gpt-5")).isEqualTo(EncodingType.O200K_BASE);
        assertThat(Tokenizer.encodingOf("gpt-4-turbo")).isEqualTo(EncodingType.CL100K_BASE);
        assertThat(Tokenizer.encodingOf("gpt-3.5-turbo-0125")).isEqualTo(EncodingType.CL100K_BASE);
        assertThat(Tokenizer.encodingOf("echo-1")).isEqualTo(Tokenizer.FALLBACK).isEqualTo(EncodingType.CL100K_BASE);
        assertThat(Tokenizer.encodingOf("llama-3.1-70b")).isEqualTo(Tokenizer.FALLBACK);
        assertThat(Tokenizer.encodingOf("o1x")).isEqualTo(Tokenizer.FALLBACK);
    }

    @Test
    void theCountsAreTiktokensCounts() {
        Tokenizer cl100k = Tokenizer.forModel("gpt-4");
        Tokenizer o200k = Tokenizer.forModel("gpt-4o");

        assertThat(cl100k.encodingName()).isEqualTo("cl100k_base");
        assertThat(cl100k.count("Hello, world!")).isEqualTo(4);
        assertThat(cl100k.count("naïve café")).isEqualTo(4);
        assertThat(cl100k.count("日本語のテキスト")).isEqualTo(8);
        assertThat(o200k.count("日本語のテキスト")).isEqualTo(6);
        assertThat(cl100k.count("")).isZero();
        // a special token's spelling in a message is text, not a way to make counting fail
        assertThat(cl100k.count("<|endoftext|>")).isEqualTo(7);
    }

    @Test
    void piecesCarryOneTokenEachAndGiveTheTextBack() {
        Tokenizer tokenizer = Tokenizer.forModel("echo-1");
        String text = "Echo: hello,  world ";
        List<String> pieces = tokenizer.pieces(text);

        assertThat(String.join("", pieces)).isEqualTo(text);
        assertThat(pieces).allMatch(p -> tokenizer.count(p) == 1);
        assertThat(pieces).hasSize((int) tokenizer.count(text));
        assertThat(tokenizer.truncate(text, 3)).isEqualTo("Echo: hello");
        assertThat(tokenizer.truncate(text, 99)).isEqualTo(text);
    }

    @Test
    void aCharacterSplitAcrossTokensStaysWhole() {
        Tokenizer tokenizer = Tokenizer.forModel("echo-1");
        String text = "日本語のテキスト";
        List<String> pieces = tokenizer.pieces(text);

        assertThat(String.join("", pieces)).isEqualTo(text);
        assertThat(pieces).hasSize(7).contains("語");
        assertThat(tokenizer.truncate(text, 3)).isEqualTo("日本");
        assertThat(tokenizer.truncate(text, 4)).isEqualTo("日本語");
    }

    @Test
    void costIsThePricedTokensPerThousandRoundedDown() {
        PriceList.ModelRate rate = rate("0.00375", "0.015");

        assertThat(rate.inputPer1k()).isEqualTo(BigInteger.valueOf(3_750));
        assertThat(rate.flat()).isFalse();
        assertThat(rate.cost(1_000, 1_000)).isEqualTo(BigInteger.valueOf(18_750));
        assertThat(rate.cost(1, 0)).isEqualTo(BigInteger.valueOf(3));
        assertThat(rate.cost(1, 1)).isEqualTo(BigInteger.valueOf(18));
        assertThat(rate.name()).isEqualTo("m");
        assertThat(rate.created()).isEqualTo(7);
    }

    @Test
    void aRequestHoldsItsInputAndFiftyOutputTokensOrFewerIfItAsksForFewer() {
        PriceList.ModelRate rate = rate("0.00375", "0.015");

        assertThat(PriceList.HELD_OUTPUT_TOKENS).isEqualTo(50);
        assertThat(rate.hold(1_000, OptionalLong.empty())).isEqualTo(rate.cost(1_000, 50)).isEqualTo(BigInteger.valueOf(4_500));
        assertThat(rate.hold(1_000, OptionalLong.of(4_000))).isEqualTo(BigInteger.valueOf(4_500));
        assertThat(rate.hold(1_000, OptionalLong.of(10))).isEqualTo(rate.cost(1_000, 10));
    }

    @Test
    void aFlatPricedModelCostsAndHoldsItsPricePerRequest() {
        PriceList.ModelRate rate = rate("0.02", "0");

        assertThat(rate.flat()).isTrue();
        assertThat(rate.cost(5, 0)).isEqualTo(BigInteger.valueOf(20_000));
        assertThat(rate.cost(50_000, 9_000)).isEqualTo(BigInteger.valueOf(20_000));
        assertThat(rate.hold(50_000, OptionalLong.empty())).isEqualTo(BigInteger.valueOf(20_000));
        assertThat(rate("0", "0").flat()).as("free, not flat-priced").isFalse();
        assertThat(rate("0", "0").cost(1_000, 1_000)).isZero();
    }

    @Test
    void aPriceListRefusesPricesThatAreNotUsdcAmounts() {
        assertThatThrownBy(() -> PriceList.of(properties(List.of(
                new GatewayProperties.Model("m", null, "0.0000001", "1", null)), null), 0))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("input-per-1k-tokens");
        assertThatThrownBy(() -> PriceList.of(properties(List.of(), null), 0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aRequestWithoutALimitGetsNoneAndGoesUpstreamAsSent() throws Exception {
        String body = "{\"model\":\"m\",  \"messages\":[{\"role\":\"user\",\"content\":\"a b\"}]}";
        ChatRequest request = parse(body);

        assertThat(request.outputLimit()).isEmpty();
        assertThat(request.inputTokens()).isEqualTo(2);
        assertThat(new String(request.sentBody(), StandardCharsets.UTF_8)).isEqualTo(body);
    }

    @Test
    void theNewerLimitFieldWins() throws Exception {
        ChatRequest request = parse("{\"model\":\"m\",\"max_completion_tokens\":9,"
                + "\"max_tokens\":99,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");

        assertThat(request.outputLimit()).hasValue(9);
    }

    @Test
    void textPartsOfMessagesAreCountedAndOtherPartsAreNot() throws Exception {
        ChatRequest request = parse("{\"model\":\"m\",\"stream\":true,\"messages\":["
                + "{\"role\":\"system\",\"content\":\"be kind\"},{\"role\":\"user\",\"content\":["
                + "{\"type\":\"text\",\"text\":\"what is this\"},{\"type\":\"image_url\",\"image_url\":{\"url\":\"x\"}}]}]}");

        assertThat(request.inputTokens()).isEqualTo(5);
        assertThat(request.lastUserText()).isEqualTo("what is this");
        assertThat(request.stream()).isTrue();
        assertThat(request.clientWantsUsage()).isFalse();
    }

    @Test
    void malformedRequestsAreRefusedWithAReason() throws Exception {
        for (String body : List.of("[]", "", "not json", "{\"messages\":[]}", "{\"model\":\"m\",\"messages\":[]}",
                "{\"model\":\"m\",\"messages\":[{\"content\":\"x\"}]}",
                "{\"model\":\"m\",\"max_tokens\":0,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}",
                "{\"model\":\"m\",\"max_tokens\":1.5,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}",
                "{\"model\":\"m\",\"stream\":\"yes\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}")) {
            assertThatThrownBy(() -> parse(body)).as(body)
                    .isInstanceOfSatisfying(GatewayProblem.class, p -> assertThat(p.code()).isEqualTo("invalid_request"));
        }
    }

    @Test
    void theProviderKeyIsNeverRepeatedInErrorsNorShownInSettings() {
        String secret = "0x" + "zz".repeat(32);
        assertThatThrownBy(() -> ProviderIdentity.load(secret, null))
                .hasMessageNotContaining("zz");
        String key = "0x715a48a4b5929015260802e728408f658958759273c7dea32bb2b0540ca13e2e";
        ProviderIdentity identity = ProviderIdentity.load(key, null);
        assertThat(identity.toString()).doesNotContain(key.substring(2));
        assertThat(properties(List.of(), key).toString()).doesNotContain(key.substring(2));
        assertThat(identity.address()).matches("0x[0-9a-f]{40}");
    }
}
