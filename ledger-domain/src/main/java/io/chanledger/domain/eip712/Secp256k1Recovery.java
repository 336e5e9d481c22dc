package io.chanledger.domain.eip712;

/** Public-key recovery from an ECDSA signature over secp256k1. */
interface Secp256k1Recovery {

    /**
     * The signer's uncompressed public key without the 0x04 prefix (x ‖ y, 64 bytes), or
     * {@code null} when no key recovers. Callers pass r and s already checked to lie in
     * [1, n-1] and a recovery id of 0 or 1.
     */
    byte[] recoverPublicKey(byte[] digest32, byte[] rs64, int recoveryId);

    /** Which implementation this is, for logs and benchmark reports. */
    String description();
}
