package io.chanledger.api.provider.x402;

import java.util.Objects;

/**
 * A payment header or facilitator request that cannot be read as x402: the spec's reason, and a
 * short detail that never echoes the input. Thrown by {@link X402Codec}; answered as a 402 (at the
 * gateway) or as {@code isValid: false} (at the facilitator), never as a 5xx.
 */
public final class X402Refusal extends RuntimeException {

    private final X402Reason reason;

    public X402Refusal(X402Reason reason, String detail) {
        super(detail, null, false, false);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public X402Reason reason() {
        return reason;
    }

    public String detail() {
        return getMessage();
    }
}
