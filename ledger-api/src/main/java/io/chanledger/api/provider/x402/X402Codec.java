package io.chanledger.api.provider.x402;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.money.InvalidUint256Exception;
import io.chanledger.domain.money.Uint256;
import java.math.BigInteger;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reads and writes x402's headers. Reading is strict: a header longer than
 * {@link #MAX_HEADER_CHARS}, text that is not standard base64, JSON that is not one object (or has a
 * duplicate key), a version other than the header's, a scheme other than {@code exact}, or a field
 * of the wrong shape is an {@link X402Refusal} with the spec's reason, whose message never echoes
 * the input. Amounts are decimal strings of base units on the wire and {@link BigInteger} here.
 * Thread-safe.
 */
public final class X402Codec {

    /** v2: the offers of an unpaid answer. */
    public static final String PAYMENT_REQUIRED = "PAYMENT-REQUIRED";
    /** v2: the client's payment. */
    public static final String PAYMENT_SIGNATURE = "PAYMENT-SIGNATURE";
    /** v2: the settlement of a paid answer (or of a failed settlement, on a 402). */
    public static final String PAYMENT_RESPONSE = "PAYMENT-RESPONSE";
    /** v1: the client's payment. */
    public static final String X_PAYMENT = "X-PAYMENT";
    /** v1: the settlement of a paid answer. */
    public static final String X_PAYMENT_RESPONSE = "X-PAYMENT-RESPONSE";

    /**
     * The longest payment header read: an {@code exact} payment with a 65-byte signature is about
     * 1.3 kB in base64, v2's copy of the offer included; contract-wallet signatures and extensions
     * get generous room, an attempt to make the server buffer megabytes does not.
     */
    public static final int MAX_HEADER_CHARS = 16 * 1024;

    /** The longest signature read, in bytes: ERC-1271 wallets may sign with more than 65. */
    public static final int MAX_SIGNATURE_BYTES = 4 * 1024;

    private static final int MAX_TEXT_CHARS = 2048;

    private final ObjectMapper json;

    public X402Codec() {
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(16)
                        .maxStringLength(MAX_HEADER_CHARS).maxNumberLength(100).build())
                .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
        this.json = new ObjectMapper(factory).enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(JsonParser.Feature.ALLOW_COMMENTS);
    }

    /** The payment of a v2 {@code PAYMENT-SIGNATURE} header. */
    public PaymentPayload decodePaymentSignature(String headerValue) {
        return decodePayment(headerValue, 2);
    }

    /** The payment of a v1 {@code X-PAYMENT} header. */
    public PaymentPayload decodeXPayment(String headerValue) {
        return decodePayment(headerValue, 1);
    }

    private PaymentPayload decodePayment(String headerValue, int version) {
        JsonNode root = readBase64Json(headerValue);
        return payload(root, version);
    }

    /**
     * A payment as the facilitator API carries it ({@code paymentPayload}), of the version the
     * request names; v1's payload object has the same shape as its {@code X-PAYMENT} JSON.
     */
    public PaymentPayload payload(JsonNode node, int expectedVersion) {
        requireObject(node, X402Reason.INVALID_PAYLOAD, "the payment is not a JSON object");
        int version = version(node.get("x402Version"));
        if (version != expectedVersion) {
            throw new X402Refusal(X402Reason.INVALID_X402_VERSION, "x402Version " + version + " where "
                    + expectedVersion + " is expected");
        }
        String scheme;
        String network;
        PaymentRequirements accepted = null;
        if (version == 2) {
            accepted = requirements(node.get("accepted"), 2);
            scheme = accepted.scheme();
            network = accepted.network();
        } else {
            scheme = text(node, "scheme", X402Reason.INVALID_SCHEME);
            network = text(node, "network", X402Reason.INVALID_NETWORK);
        }
        if (!X402Network.SCHEME_EXACT.equals(scheme)) {
            throw new X402Refusal(X402Reason.UNSUPPORTED_SCHEME, "only the scheme exact is accepted");
        }
        JsonNode payload = node.get("payload");
        requireObject(payload, X402Reason.INVALID_PAYLOAD, "payload is not a JSON object");
        String signature = signature(payload.get("signature"));
        JsonNode a = payload.get("authorization");
        requireObject(a, X402Reason.INVALID_PAYLOAD, "payload.authorization is not a JSON object");
        ExactAuthorization authorization = new ExactAuthorization(address(a, "from"), address(a, "to"),
                uint(a, "value"), uint(a, "validAfter"), uint(a, "validBefore"), bytes32(a, "nonce"));
        return new PaymentPayload(version, scheme, network, accepted, signature, authorization);
    }

    /**
     * An offer as the facilitator API carries it ({@code paymentRequirements}): v2's fields, or
     * v1's ({@code maxAmountRequired} for the amount).
     */
    public PaymentRequirements requirements(JsonNode node, int version) {
        requireObject(node, X402Reason.INVALID_PAYMENT_REQUIREMENTS, "the payment requirements are not a JSON object");
        String scheme = text(node, "scheme", X402Reason.INVALID_PAYMENT_REQUIREMENTS);
        String network = text(node, "network", X402Reason.INVALID_PAYMENT_REQUIREMENTS);
        BigInteger amount = uint(node, version == 1 ? "maxAmountRequired" : "amount",
                X402Reason.INVALID_PAYMENT_REQUIREMENTS);
        String asset = text(node, "asset", X402Reason.INVALID_PAYMENT_REQUIREMENTS);
        String payTo = text(node, "payTo", X402Reason.INVALID_PAYMENT_REQUIREMENTS);
        JsonNode timeout = node.get("maxTimeoutSeconds");
        long maxTimeoutSeconds = timeout != null && timeout.canConvertToLong() && timeout.isIntegralNumber()
                ? timeout.asLong() : 0;
        Map<String, Object> extra = new LinkedHashMap<>();
        JsonNode extraNode = node.get("extra");
        if (extraNode != null && extraNode.isObject()) {
            extraNode.properties().forEach(e -> {
                if (e.getValue().isTextual()) {
                    extra.put(e.getKey(), e.getValue().asText());
                }
            });
        }
        return new PaymentRequirements(scheme, network, amount, asset, payTo, maxTimeoutSeconds, extra);
    }

    /** The {@code x402Version} of a facilitator request or payment; anything but 1 or 2 is refused. */
    public int version(JsonNode node) {
        if (node == null || !node.isIntegralNumber() || !node.canConvertToInt()
                || (node.asInt() != 1 && node.asInt() != 2)) {
            throw new X402Refusal(X402Reason.INVALID_X402_VERSION, "x402Version must be 1 or 2");
        }
        return node.asInt();
    }

    /** Parses facilitator request text strictly (one JSON object, no duplicate keys). */
    public JsonNode readJson(byte[] body) {
        if (body == null || body.length > MAX_HEADER_CHARS * 2) {
            throw new X402Refusal(X402Reason.INVALID_PAYLOAD, "the request body is missing or longer than "
                    + MAX_HEADER_CHARS * 2 + " bytes");
        }
        try {
            JsonNode node = json.readTree(body);
            requireObject(node, X402Reason.INVALID_PAYLOAD, "the request body is not a JSON object");
            return node;
        } catch (java.io.IOException e) {
            throw new X402Refusal(X402Reason.INVALID_PAYLOAD, "the request body is not valid JSON");
        }
    }

    /** base64(JSON) of v2's {@code PAYMENT-REQUIRED}. */
    public String encodePaymentRequired(PaymentRequired required) {
        ObjectNode root = json.createObjectNode();
        root.put("x402Version", 2);
        if (required.error() != null) {
            root.put("error", required.error());
        }
        ObjectNode resource = root.putObject("resource");
        resource.put("url", required.resource().url());
        if (required.resource().description() != null) {
            resource.put("description", required.resource().description());
        }
        if (required.resource().mimeType() != null) {
            resource.put("mimeType", required.resource().mimeType());
        }
        ArrayNode accepts = root.putArray("accepts");
        for (PaymentRequirements r : required.accepts()) {
            ObjectNode offer = accepts.addObject();
            offer.put("scheme", r.scheme());
            offer.put("network", r.network());
            offer.put("amount", Uint256.decimal(r.amount()));
            offer.put("asset", r.asset());
            offer.put("payTo", r.payTo());
            offer.put("maxTimeoutSeconds", r.maxTimeoutSeconds());
            offer.set("extra", json.valueToTree(r.extra()));
        }
        return base64(root);
    }

    /** v1's 402 body: {@code {x402Version: 1, error, accepts}} with each offer in v1's fields. */
    public ObjectNode v1Body(PaymentRequired required) {
        ObjectNode root = json.createObjectNode();
        root.put("x402Version", 1);
        root.put("error", required.error() == null ? "" : required.error());
        ArrayNode accepts = root.putArray("accepts");
        PaymentRequired.Resource resource = required.resource();
        for (PaymentRequirements r : required.accepts()) {
            PaymentRequirements.V1 v1 = r.toV1(resource.url(), resource.description(), resource.mimeType());
            ObjectNode offer = accepts.addObject();
            offer.put("scheme", v1.scheme());
            offer.put("network", v1.network());
            offer.put("maxAmountRequired", Uint256.decimal(v1.maxAmountRequired()));
            offer.put("resource", v1.resource());
            offer.put("description", v1.description());
            offer.put("mimeType", v1.mimeType());
            offer.put("payTo", v1.payTo());
            offer.put("maxTimeoutSeconds", v1.maxTimeoutSeconds());
            offer.put("asset", v1.asset());
            offer.set("extra", json.valueToTree(v1.extra()));
        }
        return root;
    }

    /** base64(JSON) of {@code PAYMENT-RESPONSE} / {@code X-PAYMENT-RESPONSE}; both versions write the same. */
    public String encodeSettlementResponse(SettlementResponse response) {
        return base64(settlementJson(response));
    }

    /** The settlement response as JSON, as the facilitator's {@code /settle} answers it. */
    public ObjectNode settlementJson(SettlementResponse response) {
        ObjectNode root = json.createObjectNode();
        root.put("success", response.success());
        if (response.errorReason() != null) {
            root.put("errorReason", response.errorReason().code());
        }
        if (response.payer() != null) {
            root.put("payer", response.payer());
        }
        root.put("transaction", response.transaction() == null ? "" : response.transaction());
        root.put("network", response.network());
        if (response.amount() != null) {
            root.put("amount", Uint256.decimal(response.amount()));
        }
        return root;
    }

    /** Reads a {@code PAYMENT-RESPONSE} header back (for clients and tests). */
    public SettlementResponse decodeSettlementResponse(String headerValue) {
        JsonNode root = readBase64Json(headerValue);
        JsonNode reason = root.get("errorReason");
        X402Reason errorReason = null;
        if (reason != null && reason.isTextual()) {
            for (X402Reason candidate : X402Reason.values()) {
                if (candidate.code().equals(reason.asText())) {
                    errorReason = candidate;
                }
            }
        }
        JsonNode amount = root.get("amount");
        return new SettlementResponse(root.path("success").asBoolean(false), errorReason,
                root.hasNonNull("payer") ? root.get("payer").asText() : null, root.path("transaction").asText(""),
                root.path("network").asText(""), amount != null && amount.isTextual() ? parseUint(amount.asText(),
                X402Reason.INVALID_PAYLOAD, "amount") : null);
    }

    /** Reads a {@code PAYMENT-REQUIRED} header back (for clients and tests). */
    public JsonNode decodePaymentRequired(String headerValue) {
        return readBase64Json(headerValue);
    }

    private JsonNode readBase64Json(String headerValue) {
        if (headerValue == null || headerValue.isBlank()) {
            throw new X402Refusal(X402Reason.INVALID_PAYLOAD, "the payment header is empty");
        }
        if (headerValue.length() > MAX_HEADER_CHARS) {
            throw new X402Refusal(X402Reason.INVALID_PAYLOAD, "the payment header has " + headerValue.length()
                    + " characters; at most " + MAX_HEADER_CHARS + " are read");
        }
        byte[] decoded;
        try {
            decoded = Base64.getDecoder().decode(headerValue.strip());
        } catch (IllegalArgumentException e) {
            throw new X402Refusal(X402Reason.INVALID_PAYLOAD, "the payment header is not base64");
        }
        try {
            JsonNode node = json.readTree(decoded);
            requireObject(node, X402Reason.INVALID_PAYLOAD, "the payment header is not base64 of a JSON object");
            return node;
        } catch (java.io.IOException e) {
            throw new X402Refusal(X402Reason.INVALID_PAYLOAD, "the payment header is not base64 of JSON");
        }
    }

    private String base64(ObjectNode node) {
        try {
            return Base64.getEncoder().encodeToString(json.writeValueAsBytes(node));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an x402 header could not be written", e);
        }
    }

    private static void requireObject(JsonNode node, X402Reason reason, String detail) {
        if (node == null || !node.isObject()) {
            throw new X402Refusal(reason, detail);
        }
    }

    private static String text(JsonNode parent, String field, X402Reason reason) {
        JsonNode node = parent.get(field);
        if (node == null || !node.isTextual() || node.asText().isEmpty() || node.asText().length() > MAX_TEXT_CHARS) {
            throw new X402Refusal(reason, field + " must be a non-empty string");
        }
        return node.asText();
    }

    private static String address(JsonNode parent, String field) {
        JsonNode node = parent.get(field);
        if (node == null || !node.isTextual() || !Hex.isAddress(node.asText())) {
            throw new X402Refusal(X402Reason.INVALID_PAYLOAD, "authorization." + field + " must be an address");
        }
        return node.asText().toLowerCase(Locale.ROOT);
    }

    private static String bytes32(JsonNode parent, String field) {
        JsonNode node = parent.get(field);
        if (node == null || !node.isTextual() || !Hex.isBytes32(node.asText())) {
            throw new X402Refusal(X402Reason.INVALID_PAYLOAD, "authorization." + field + " must be 32 bytes of 0x-hex");
        }
        return node.asText().toLowerCase(Locale.ROOT);
    }

    private static BigInteger uint(JsonNode parent, String field) {
        return uint(parent, field, X402Reason.INVALID_PAYLOAD);
    }

    /** A uint256 as a decimal string; a JSON number is accepted too when it is an integer (some clients write those). */
    private static BigInteger uint(JsonNode parent, String field, X402Reason reason) {
        JsonNode node = parent.get(field);
        if (node != null && node.isIntegralNumber() && node.bigIntegerValue().signum() >= 0) {
            return parseUint(node.bigIntegerValue().toString(), reason, field);
        }
        if (node == null || !node.isTextual()) {
            throw new X402Refusal(reason, field + " must be a decimal string of base units");
        }
        return parseUint(node.asText(), reason, field);
    }

    private static BigInteger parseUint(String text, X402Reason reason, String field) {
        try {
            return Uint256.parseDecimal(text);
        } catch (InvalidUint256Exception e) {
            throw new X402Refusal(reason, field + ": " + e.getMessage());
        }
    }

    private static String signature(JsonNode node) {
        if (node == null || !node.isTextual()) {
            throw new X402Refusal(X402Reason.INVALID_PAYLOAD, "payload.signature must be 0x-hex");
        }
        String text = node.asText();
        if (text.length() < 4 || text.length() > 2 + 2 * MAX_SIGNATURE_BYTES || text.length() % 2 != 0
                || !text.startsWith("0x")) {
            throw new X402Refusal(X402Reason.INVALID_PAYLOAD, "payload.signature must be 0x-hex of at most "
                    + MAX_SIGNATURE_BYTES + " bytes");
        }
        for (int i = 2; i < text.length(); i++) {
            if (Character.digit(text.charAt(i), 16) < 0) {
                throw new X402Refusal(X402Reason.INVALID_PAYLOAD, "payload.signature must be 0x-hex");
            }
        }
        return text.toLowerCase(Locale.ROOT);
    }
}
