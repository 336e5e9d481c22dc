package io.chanledger.domain.eip712;

import org.bouncycastle.crypto.digests.KeccakDigest;

/** Keccak-256 as Ethereum uses it (the original Keccak padding, not SHA3-256). */
final class Keccak {

    private Keccak() {
    }

    static byte[] keccak256(byte[] input) {
        return keccak256(input, 0, input.length);
    }

    static byte[] keccak256(byte[] input, int offset, int length) {
        KeccakDigest digest = new KeccakDigest(256);
        digest.update(input, offset, length);
        byte[] out = new byte[32];
        digest.doFinal(out, 0);
        return out;
    }
}
