package io.chanledger.api.provider.gateway;

import io.chanledger.api.provider.ProviderIdentity;
import static io.chanledger.api.provider.gateway.GatewayReplies.header;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.provider.x402.X402Settlement;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.domain.eip712.Hex;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The unpaid answer offers x402's {@code exact} beside the unchanged channel terms, for the
 * requests whose price is known before the call, and the price list says which ways each model
 * may be paid for (application-test.yml: {@code echo-1} per token, {@code echo-flat} one cent,
 * {@code page-fetch} two cents, {@code vpn-lease} 0.0005 per minute from 5 to 120 minutes).
 */
class X402OfferTest extends LedgerIntegrationTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Autowired
    ProviderIdentity identity;
    @Autowired
    PriceList prices;
    @Autowired
    X402Settlement settlement;

    @Test
    void aFlatModelIsOfferedExactForItsPriceBesideTheUnchangedChannelTerms() throws Exception {
        Http.Reply unpaid = Http.postJson(chatUrl(), Agent.chatBody("echo-flat", "hello", null, false));

        assertThat(unpaid.status()).isEqualTo(402);
        // the channel terms, as the deployed client reads them
        assertThat(header(unpaid, "X-CHAN-Error")).isEqualTo("voucher_required");
        assertThat(header(unpaid, "X-Payment-Protocol")).isEqualTo("chan-v2");
        assertThat(header(unpaid, "X-Payment-Provider")).isEqualTo(identity.checksumAddress());
        assertThat(unpaid.json().path("error").path("code").asText()).isEqualTo("voucher_required");
        assertThat(unpaid.json().path("error").path("type").isTextual()).isTrue();

        String usdc = Hex.toChecksumAddress(devnet().usdcAddress());
        JsonNode v1 = unpaid.json();
        assertThat(v1.path("x402Version").asInt()).isEqualTo(1);
        assertThat(v1.path("accepts")).hasSize(1);
        JsonNode offer = v1.path("accepts").path(0);
        assertThat(offer.path("scheme").asText()).isEqualTo("exact");
        assertThat(offer.path("network").asText()).isEqualTo("polygon");
        assertThat(offer.path("maxAmountRequired").asText()).isEqualTo("10000");
        assertThat(offer.path("asset").asText()).isEqualTo(usdc);
        assertThat(offer.path("payTo").asText()).isEqualTo(identity.checksumAddress());
        assertThat(offer.path("resource").asText()).isEqualTo(baseUrl() + "/v1/chat/completions");
        assertThat(offer.path("extra")).isEqualTo(JSON.readTree("{\"name\":\"USD Coin\",\"version\":\"2\"}"));
        assertThat(offer.path("maxTimeoutSeconds").asLong()).isPositive();

        JsonNode v2 = paymentRequired(unpaid);
        assertThat(v2.path("x402Version").asInt()).isEqualTo(2);
        assertThat(v2.path("resource").path("url").asText()).isEqualTo(baseUrl() + "/v1/chat/completions");
        JsonNode v2Offer = v2.path("accepts").path(0);
        assertThat(v2.path("accepts")).hasSize(1);
        assertThat(v2Offer.path("scheme").asText()).isEqualTo("exact");
        assertThat(v2Offer.path("network").asText()).isEqualTo("eip155:137");
        assertThat(v2Offer.path("amount").asText()).isEqualTo("10000");
        assertThat(v2Offer.path("asset").asText()).isEqualTo(usdc);
        assertThat(v2Offer.path("payTo").asText()).isEqualTo(identity.checksumAddress());
        assertThat(v2Offer.path("extra")).isEqualTo(JSON.readTree("{\"name\":\"USD Coin\",\"version\":\"2\"}"));
    }

    @Test
    void servicesAreOfferedExactForThePriceOfTheirParameters() throws Exception {
        Http.Reply flat = Http.postJson(chatUrl(), Agent.serviceBody("page-fetch", "{\"url\":\"https://example.com/\"}"));
        assertThat(paymentRequired(flat).path("accepts").path(0).path("amount").asText()).isEqualTo("20000");

        Http.Reply lease = Http.postJson(chatUrl(), Agent.serviceBody("vpn-lease", "{\"minutes\":30,\"country\":\"DE\"}"));
        assertThat(lease.status()).isEqualTo(402);
        assertThat(paymentRequired(lease).path("accepts").path(0).path("amount").asText()).isEqualTo("15000");
        assertThat(lease.json().path("accepts").path(0).path("maxAmountRequired").asText()).isEqualTo("15000");
    }

    @Test
    void noExactOfferWhereThePriceIsNotKnownBeforeTheCall() {
        Http.Reply tokens = Http.postJson(chatUrl(), Agent.chatBody("echo-1", "hello", null, false));
        Http.Reply outOfBounds = Http.postJson(chatUrl(), Agent.serviceBody("vpn-lease",
                "{\"minutes\":500,\"country\":\"DE\"}"));
        Http.Reply unknownModel = Http.postJson(chatUrl(), Agent.chatBody("no-such-model", "hello", null, false));

        for (Http.Reply reply : List.of(tokens, outOfBounds, unknownModel)) {
            assertThat(reply.status()).isEqualTo(402);
            assertThat(header(reply, "X-CHAN-Error")).isEqualTo("voucher_required");
            assertThat(header(reply, "PAYMENT-REQUIRED")).isNull();
            assertThat(reply.json().has("accepts")).isFalse();
            assertThat(reply.json().has("x402Version")).isFalse();
        }
    }

    @Test
    void thePriceListAndTheModelListSayHowEachModelMayBePaidFor() {
        JsonNode pricing = Http.get(baseUrl() + "/v1/pricing").json().path("models");
        assertThat(texts(pricing.path("echo-1").path("payments"))).containsExactly("chan-v2");
        assertThat(texts(pricing.path("echo-flat").path("payments"))).containsExactly("chan-v2", "x402-exact");
        assertThat(texts(pricing.path("vpn-lease").path("payments"))).containsExactly("chan-v2", "x402-exact");

        JsonNode models = Http.get(baseUrl() + "/v1/models").json().path("data");
        for (JsonNode model : models) {
            assertThat(model.path("payments"))
                    .isEqualTo(pricing.path(model.path("id").asText()).path("payments"));
        }
    }

    @Test
    void theAgentDocsExplainPayingWithX402ForTheModelsItIsOfferedFor() {
        String docs = Http.get(baseUrl() + "/v1/docs").body();

        String x402 = docs.substring(docs.indexOf("Paying with x402"));
        String models = x402.substring(0, x402.indexOf('\n', x402.indexOf("models ")));
        assertThat(models).contains("echo-flat", "page-fetch", "vpn-lease").doesNotContain("echo-1");
        assertThat(x402).contains("PAYMENT-SIGNATURE", "X-PAYMENT", "TransferWithAuthorization", "USD Coin");
    }

    @Test
    void exactIsNotOfferedForModelsBelowTheMinimumPrice() {
        GatewayProperties.X402 settings = new GatewayProperties.X402(true, "0.005", "USD Coin", "2", 60);
        X402Offers offers = new X402Offers(settings, "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359",
                identity.checksumAddress(), settlement);

        assertThat(offers.offered(prices.model("echo-flat").orElseThrow())).isTrue();
        // 5 minutes at 0.0005 is 0.0025: some of its requests would cost the provider more gas than they pay
        assertThat(offers.offered(prices.model("vpn-lease").orElseThrow())).isFalse();
        assertThat(offers.offered(prices.model("echo-1").orElseThrow())).isFalse();
        assertThat(new X402Offers(new GatewayProperties.X402(false, "0", "USD Coin", "2", 60),
                "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", identity.checksumAddress(), settlement)
                .offered(prices.model("echo-flat").orElseThrow())).isFalse();
    }

    private String chatUrl() {
        return baseUrl() + "/v1/chat/completions";
    }

    private static JsonNode paymentRequired(Http.Reply reply) throws Exception {
        String header = header(reply, "PAYMENT-REQUIRED");
        assertThat(header).as("PAYMENT-REQUIRED of %s", reply.body()).isNotNull();
        return JSON.readTree(new String(Base64.getDecoder().decode(header), StandardCharsets.UTF_8));
    }

    private static List<String> texts(JsonNode array) {
        return java.util.stream.StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
    }
}
