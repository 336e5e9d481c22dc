package io.chanledger.api.provider.x402;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One offer of an x402 402 answer, in v2's fields: {@code scheme}, {@code network} (CAIP-2),
 * {@code amount} (the price in the asset's base units, exactly what the payment must carry),
 * {@code asset} (the token's address), {@code payTo} (the provider's wallet),
 * {@code maxTimeoutSeconds} and {@code extra} (for {@code exact} on EIP-3009: the token's signing
 * domain {@code {name, version}}). Addresses are kept as given; comparisons ignore case.
 */
public record PaymentRequirements(String scheme, String network, BigInteger amount, String asset, String payTo,
                                  long maxTimeoutSeconds, Map<String, Object> extra) {

    public PaymentRequirements {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(network, "network");
        Objects.requireNonNull(amount, "amount");
        Objects.requireNonNull(asset, "asset");
        Objects.requireNonNull(payTo, "payTo");
        extra = extra == null ? Map.of() : Map.copyOf(new LinkedHashMap<>(extra));
    }

    /**
     * The {@code exact} offer on Polygon for {@code amount} base units of {@code asset} (whose
     * EIP-712 domain is {@code tokenName}/{@code tokenVersion}) to {@code payTo}.
     */
    public static PaymentRequirements exact(BigInteger amount, String asset, String tokenName, String tokenVersion,
                                            String payTo, long maxTimeoutSeconds) {
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("name", tokenName);
        extra.put("version", tokenVersion);
        return new PaymentRequirements(X402Network.SCHEME_EXACT, X402Network.V2_NAME, amount, asset, payTo,
                maxTimeoutSeconds, extra);
    }

    /**
     * The same offer in v1's fields ({@code network} {@code polygon}, {@code maxAmountRequired},
     * and the resource described in the offer itself).
     */
    public V1 toV1(String resource, String description, String mimeType) {
        return new V1(scheme, X402Network.V1_NAME, amount, resource, description == null ? "" : description,
                mimeType == null ? "" : mimeType, payTo, maxTimeoutSeconds, asset, extra);
    }

    /** An offer as x402 v1 writes it (in the 402 body's {@code accepts}). */
    public record V1(String scheme, String network, BigInteger maxAmountRequired, String resource, String description,
                     String mimeType, String payTo, long maxTimeoutSeconds, String asset, Map<String, Object> extra) {
    }
}
