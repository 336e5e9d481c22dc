package io.chanledger.domain.eip712;

/** Why the contract would refuse a signature, in the order it checks. */
public enum SignatureRejection {
    /** Not exactly 65 bytes r ‖ s ‖ v (64-byte EIP-2098 compact signatures included). */
    INVALID_LENGTH("invalid-length"),
    /** s above secp256k1n / 2: the malleated twin of a valid signature. */
    HIGH_S("high-s"),
    /** v is not 0, 1, 27 or 28. */
    INVALID_V("invalid-v"),
    /** ecrecover yields nothing: r or s zero or out of range, or r is not a curve point's x. */
    INVALID_SIGNATURE("invalid-signature");

    private final String code;

    SignatureRejection(String code) {
        this.code = code;
    }

    /** Stable code, as in the shared test vectors. */
    public String code() {
        return code;
    }
}
