package io.chanledger.api.provider.x402;

import java.util.Objects;

/**
 * A payment as the client sends it, in either wire version: v2's {@code PAYMENT-SIGNATURE}
 * ({@code accepted} is the offer the client chose, copied whole) or v1's {@code X-PAYMENT} (only
 * {@code scheme} and {@code network} travel; {@code accepted} is null). The scheme-specific part is
 * {@code exact}'s EIP-3009 {@code signature} (0x-hex, 65 bytes for a key, any length for a contract
 * wallet) and {@code authorization}.
 */
public record PaymentPayload(int x402Version, String scheme, String network, PaymentRequirements accepted,
                             String signature, ExactAuthorization authorization) {

    public PaymentPayload {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(network, "network");
        Objects.requireNonNull(signature, "signature");
        Objects.requireNonNull(authorization, "authorization");
        if (x402Version == 2) {
            Objects.requireNonNull(accepted, "accepted");
        }
    }

    /** The payer: the authorization's {@code from}, lowercase. */
    public String payer() {
        return authorization.from();
    }

    /** The key under which this payment is reserved and settled at most once. */
    public PaymentKey key() {
        return new PaymentKey(authorization.from(), authorization.nonce());
    }
}
