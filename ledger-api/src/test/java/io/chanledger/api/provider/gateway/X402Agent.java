package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.api.support.Http;
import io.chanledger.testsupport.Authorization;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.DevnetAccounts;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;
import org.web3j.crypto.Credentials;
import org.web3j.utils.Numeric;

/**
 * An x402 client as the stock ones behave, written from the wire: it reads the offer of a 402,
 * signs an EIP-3009 {@code TransferWithAuthorization} for it with a wallet that holds USDC and no
 * gas, and sends it as v2's {@code PAYMENT-SIGNATURE} or v1's {@code X-PAYMENT}.
 */
final class X402Agent {

    static final String V2 = "PAYMENT-SIGNATURE";
    static final String V1 = "X-PAYMENT";
    private static final ObjectMapper JSON = new ObjectMapper();

    final Devnet devnet;
    final Credentials wallet;
    private final String baseUrl;

    private X402Agent(Devnet devnet, Credentials wallet, String baseUrl) {
        this.devnet = devnet;
        this.wallet = wallet;
        this.baseUrl = baseUrl;
    }

    /** A payer of its own holding {@code usdc} base units. */
    static X402Agent create(Devnet devnet, String baseUrl, BigInteger usdc) {
        Credentials wallet = DevnetAccounts.labelled("x402-agent-" + UUID.randomUUID());
        if (usdc.signum() > 0) {
            devnet.mint(wallet.getAddress(), usdc);
        }
        return new X402Agent(devnet, wallet, baseUrl);
    }

    String address() {
        return wallet.getAddress();
    }

    BigInteger balance() {
        return devnet.balanceOf(wallet.getAddress());
    }

    /** The v2 offer of an unpaid answer: its {@code PAYMENT-REQUIRED} decoded. */
    static JsonNode paymentRequired(Http.Reply unpaid) {
        String header = GatewayReplies.header(unpaid, "PAYMENT-REQUIRED");
        if (header == null) {
            throw new AssertionError("no PAYMENT-REQUIRED in " + unpaid.status() + " " + unpaid.body());
        }
        return decode(header);
    }

    static JsonNode decode(String base64Json) {
        try {
            return JSON.readTree(new String(Base64.getDecoder().decode(base64Json), StandardCharsets.UTF_8));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    /** The request unpaid, and its offer. */
    JsonNode offerFor(String body) {
        return paymentRequired(Http.postJson(baseUrl + "/v1/chat/completions", body)).path("accepts").path(0);
    }

    /** An authorization paying {@code offer}, valid from now (less a minute) for an hour. */
    Authorization authorize(JsonNode offer) {
        long now = Math.max(System.currentTimeMillis() / 1000, devnet.latestBlockTimestamp().longValueExact());
        return Authorization.of(wallet.getAddress(), offer.path("payTo").asText(),
                new BigInteger(offer.path("amount").asText()), now - 60, now + 3600);
    }

    String sign(Authorization authorization) {
        return sign(wallet, authorization);
    }

    String sign(Credentials signer, Authorization authorization) {
        return Numeric.toHexString(devnet.usdcAuthorizations().signTransfer(signer, authorization));
    }

    /** v2's payment JSON for {@code offer}. */
    ObjectNode v2Json(JsonNode offer, Authorization authorization, String signature) {
        ObjectNode payment = JSON.createObjectNode();
        payment.put("x402Version", 2);
        payment.putObject("resource").put("url", baseUrl + "/v1/chat/completions");
        payment.set("accepted", offer.deepCopy());
        payload(payment.putObject("payload"), authorization, signature);
        return payment;
    }

    /** v1's payment JSON. */
    ObjectNode v1Json(Authorization authorization, String signature) {
        ObjectNode payment = JSON.createObjectNode();
        payment.put("x402Version", 1);
        payment.put("scheme", "exact");
        payment.put("network", "polygon");
        payload(payment.putObject("payload"), authorization, signature);
        return payment;
    }

    private static void payload(ObjectNode payload, Authorization a, String signature) {
        payload.put("signature", signature);
        payload.putObject("authorization").put("from", a.from()).put("to", a.to()).put("value", a.value().toString())
                .put("validAfter", a.validAfter().toString()).put("validBefore", a.validBefore().toString())
                .put("nonce", a.nonce());
    }

    static String encode(JsonNode payment) {
        return Base64.getEncoder().encodeToString(payment.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The request paid with {@code header} {@code value}. */
    Http.Reply send(String body, String header, String value) {
        return Http.send(HttpRequest.newBuilder(URI.create(baseUrl + "/v1/chat/completions"))
                .header("Content-Type", "application/json").header(header, value)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** Reads the offer for {@code body}, pays it with v2 and answers the reply and the header sent. */
    Paid payV2(String body) {
        JsonNode offer = offerFor(body);
        Authorization authorization = authorize(offer);
        String header = encode(v2Json(offer, authorization, sign(authorization)));
        return new Paid(send(body, V2, header), header, authorization);
    }

    record Paid(Http.Reply reply, String header, Authorization authorization) {
    }
}
