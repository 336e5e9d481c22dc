package io.chanledger.api.provider.x402;

import java.math.BigInteger;
import java.util.Objects;

/**
 * The EIP-3009 {@code TransferWithAuthorization} an {@code exact} payment carries: {@code from}
 * (the payer) lets {@code to} receive {@code value} base units between {@code validAfter} and
 * {@code validBefore} (unix seconds), once, under the 32-byte {@code nonce}. Addresses and the nonce
 * are lowercase 0x-hex (the codec normalises them), so (from, nonce) is a stable key.
 */
public record ExactAuthorization(String from, String to, BigInteger value, BigInteger validAfter,
                                 BigInteger validBefore, String nonce) {

    public ExactAuthorization {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(validAfter, "validAfter");
        Objects.requireNonNull(validBefore, "validBefore");
        Objects.requireNonNull(nonce, "nonce");
    }
}
