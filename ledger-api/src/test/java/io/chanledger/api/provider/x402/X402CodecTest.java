package io.chanledger.api.provider.x402;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.domain.eip712.Eip3009Vectors;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The x402 headers, read strictly and written as the stock clients read them: a payment as
 * {@code @x402/fetch} 2.27 and {@code x402-fetch} 1.2 send it (the signature and authorization
 * from viem's vectors) decodes, and each way of spoiling it is refused with the spec's reason.
 */
class X402CodecTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final X402Codec CODEC = new X402Codec();
    private static final JsonNode VECTOR = Eip3009Vectors.authorization("transfer-as-x402-v2-signs");
    private static final String ASSET = "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359";

    @Test
    void aV2PaymentAsTheStockClientWritesItDecodes() {
        PaymentPayload payment = CODEC.decodePaymentSignature(header(v2Payment()));

        assertThat(payment.x402Version()).isEqualTo(2);
        assertThat(payment.scheme()).isEqualTo("exact");
        assertThat(payment.network()).isEqualTo("eip155:137");
        assertThat(payment.accepted().amount()).isEqualTo(BigInteger.valueOf(10_000));
        assertThat(payment.accepted().extra()).containsEntry("name", "USD Coin").containsEntry("version", "2");
        assertThat(payment.authorization().value()).isEqualTo(BigInteger.valueOf(10_000));
        assertThat(payment.payer()).isEqualTo(VECTOR.path("message").path("from").asText().toLowerCase());
        assertThat(payment.key().nonce()).isEqualTo(VECTOR.path("message").path("nonce").asText());
        assertThat(payment.signature()).isEqualTo(VECTOR.path("signature").asText());
    }

    @Test
    void aV1PaymentDecodesWithItsNetworkName() {
        PaymentPayload payment = CODEC.decodeXPayment(header(v1Payment()));

        assertThat(payment.x402Version()).isEqualTo(1);
        assertThat(payment.network()).isEqualTo("polygon");
        assertThat(payment.accepted()).isNull();
        assertThat(payment.authorization().validBefore()).isEqualTo(new BigInteger("4102444800"));
    }

    @Test
    void theWrongVersionForTheHeaderIsRefused() {
        assertRefused(() -> CODEC.decodeXPayment(header(v2Payment())), X402Reason.INVALID_X402_VERSION);
        assertRefused(() -> CODEC.decodePaymentSignature(header(v1Payment())), X402Reason.INVALID_X402_VERSION);
        assertRefused(() -> CODEC.decodePaymentSignature(header(edit(v2Payment(), p -> p.put("x402Version", 3)))),
                X402Reason.INVALID_X402_VERSION);
        assertRefused(() -> CODEC.decodePaymentSignature(header(edit(v2Payment(), p -> p.put("x402Version", "2")))),
                X402Reason.INVALID_X402_VERSION);
    }

    @Test
    void malformedHeadersAreRefusedAsInvalidPayloads() {
        assertRefused(() -> CODEC.decodePaymentSignature("not base64!"), X402Reason.INVALID_PAYLOAD);
        assertRefused(() -> CODEC.decodePaymentSignature(""), X402Reason.INVALID_PAYLOAD);
        assertRefused(() -> CODEC.decodePaymentSignature(b64("{\"x402Version\":2")), X402Reason.INVALID_PAYLOAD);
        assertRefused(() -> CODEC.decodePaymentSignature(b64("[1,2]")), X402Reason.INVALID_PAYLOAD);
        assertRefused(() -> CODEC.decodePaymentSignature(b64("{\"x402Version\":2,\"x402Version\":2}")),
                X402Reason.INVALID_PAYLOAD);
        assertRefused(() -> CODEC.decodePaymentSignature(b64(v2Payment() + " {}")), X402Reason.INVALID_PAYLOAD);
        assertRefused(() -> CODEC.decodePaymentSignature("A".repeat(X402Codec.MAX_HEADER_CHARS + 4)),
                X402Reason.INVALID_PAYLOAD);
    }

    @Test
    void eachSpoiledFieldIsRefusedWithItsReason() {
        assertRefused(() -> CODEC.decodePaymentSignature(header(edit(v2Payment(),
                p -> ((ObjectNode) p.get("accepted")).put("scheme", "upto")))), X402Reason.UNSUPPORTED_SCHEME);
        assertRefused(() -> CODEC.decodePaymentSignature(header(edit(v2Payment(),
                p -> ((ObjectNode) p.get("accepted")).put("amount", "-1")))), X402Reason.INVALID_PAYMENT_REQUIREMENTS);
        assertRefused(() -> CODEC.decodePaymentSignature(header(edit(v2Payment(),
                p -> authorization(p).put("value", "1e6")))), X402Reason.INVALID_PAYLOAD);
        assertRefused(() -> CODEC.decodePaymentSignature(header(edit(v2Payment(),
                p -> authorization(p).put("value", "1" + "0".repeat(78))))), X402Reason.INVALID_PAYLOAD);
        assertRefused(() -> CODEC.decodePaymentSignature(header(edit(v2Payment(),
                p -> authorization(p).put("from", "0x1234")))), X402Reason.INVALID_PAYLOAD);
        assertRefused(() -> CODEC.decodePaymentSignature(header(edit(v2Payment(),
                p -> authorization(p).put("nonce", "0x01")))), X402Reason.INVALID_PAYLOAD);
        assertRefused(() -> CODEC.decodePaymentSignature(header(edit(v2Payment(),
                p -> ((ObjectNode) p.get("payload")).put("signature", "0xzz")))), X402Reason.INVALID_PAYLOAD);
        assertRefused(() -> CODEC.decodePaymentSignature(header(edit(v2Payment(),
                p -> ((ObjectNode) p.get("payload")).remove("authorization")))), X402Reason.INVALID_PAYLOAD);
    }

    @Test
    void aRefusalNeverEchoesTheInput() {
        String marker = "0xdeadbeefMARKER";
        assertThatThrownBy(() -> CODEC.decodePaymentSignature(header(edit(v2Payment(),
                p -> authorization(p).put("from", marker)))))
                .isInstanceOf(X402Refusal.class).message().doesNotContain("MARKER");
    }

    @Test
    void theUnpaidAnswerOffersExactInBothVersions() throws Exception {
        PaymentRequirements offer = PaymentRequirements.exact(BigInteger.valueOf(2500), ASSET, "USD Coin", "2",
                "0x888a81f924fee3dd0be6367484caa4e91ad34a3f", 60);
        PaymentRequired required = new PaymentRequired("payment required",
                new PaymentRequired.Resource("http://127.0.0.1/v1/chat/completions", "chat", "application/json"),
                java.util.List.of(offer));

        JsonNode v2 = JSON.readTree(Base64.getDecoder().decode(CODEC.encodePaymentRequired(required)));
        JsonNode v1 = CODEC.v1Body(required);

        assertThat(v2.path("x402Version").asInt()).isEqualTo(2);
        assertThat(v2.path("resource").path("url").asText()).endsWith("/v1/chat/completions");
        JsonNode accepted = v2.path("accepts").get(0);
        assertThat(accepted.path("amount").isTextual()).isTrue();
        assertThat(accepted.path("amount").asText()).isEqualTo("2500");
        assertThat(accepted.path("network").asText()).isEqualTo("eip155:137");
        assertThat(accepted.path("extra").path("name").asText()).isEqualTo("USD Coin");
        assertThat(v1.path("x402Version").asInt()).isEqualTo(1);
        assertThat(v1.path("accepts").get(0).path("maxAmountRequired").asText()).isEqualTo("2500");
        assertThat(v1.path("accepts").get(0).path("network").asText()).isEqualTo("polygon");
        assertThat(v1.path("accepts").get(0).path("resource").asText()).endsWith("/v1/chat/completions");
        assertThat(CODEC.requirements(accepted, 2)).isEqualTo(offer);
        assertThat(CODEC.requirements(v1.path("accepts").get(0), 1).amount()).isEqualTo(offer.amount());
    }

    @Test
    void settlementResponsesRoundTrip() {
        SettlementResponse settled = SettlementResponse.settled("0xabc", "0x" + "1".repeat(64), "eip155:137",
                BigInteger.valueOf(10_000));
        SettlementResponse failed = SettlementResponse.failed(X402Reason.INSUFFICIENT_FUNDS, "0xabc", null, "eip155:137");

        assertThat(CODEC.decodeSettlementResponse(CODEC.encodeSettlementResponse(settled))).isEqualTo(settled);
        assertThat(CODEC.decodeSettlementResponse(CODEC.encodeSettlementResponse(failed))).isEqualTo(failed);
        assertThat(CODEC.settlementJson(failed).path("transaction").asText("missing")).isEmpty();
        assertThat(CODEC.settlementJson(failed).path("errorReason").asText()).isEqualTo("insufficient_funds");
    }

    static String v2Payment() {
        ObjectNode accepted = JSON.createObjectNode().put("scheme", "exact").put("network", "eip155:137")
                .put("amount", "10000").put("asset", ASSET).put("payTo", VECTOR.path("message").path("to").asText())
                .put("maxTimeoutSeconds", 60);
        accepted.putObject("extra").put("name", "USD Coin").put("version", "2");
        ObjectNode payment = JSON.createObjectNode().put("x402Version", 2);
        payment.putObject("resource").put("url", "http://127.0.0.1/v1/chat/completions");
        payment.set("accepted", accepted);
        payment.set("payload", exactPayload());
        return payment.toString();
    }

    static String v1Payment() {
        ObjectNode payment = JSON.createObjectNode().put("x402Version", 1).put("scheme", "exact").put("network", "polygon");
        payment.set("payload", exactPayload());
        return payment.toString();
    }

    private static ObjectNode exactPayload() {
        ObjectNode payload = JSON.createObjectNode().put("signature", VECTOR.path("signature").asText());
        payload.set("authorization", VECTOR.path("message").deepCopy());
        return payload;
    }

    private static ObjectNode authorization(ObjectNode payment) {
        return (ObjectNode) payment.get("payload").get("authorization");
    }

    private static String edit(String payment, Consumer<ObjectNode> change) {
        try {
            ObjectNode node = (ObjectNode) JSON.readTree(payment);
            change.accept(node);
            return node.toString();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String header(String json) {
        return b64(json);
    }

    private static String b64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, X402Reason reason) {
        assertThatThrownBy(call).isInstanceOfSatisfying(X402Refusal.class, r -> assertThat(r.reason()).isEqualTo(reason));
    }
}
