package io.chanledger.api.provider.x402;

import java.util.Objects;

/**
 * (payer, nonce) of an EIP-3009 authorization, both lowercase 0x-hex: the token settles each at
 * most once, and so does this provider. The gateway keeps a paid answer under this key, so that
 * the same payment sent again gets that answer rather than a second charge.
 */
public record PaymentKey(String payer, String nonce) {

    public PaymentKey {
        Objects.requireNonNull(payer, "payer");
        Objects.requireNonNull(nonce, "nonce");
    }

    @Override
    public String toString() {
        return payer + "/" + nonce;
    }
}
