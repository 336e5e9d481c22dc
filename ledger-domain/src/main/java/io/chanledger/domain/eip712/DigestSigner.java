package io.chanledger.domain.eip712;

import java.math.BigInteger;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Sign;
import org.web3j.utils.Numeric;

/**
 * Signs 32-byte digests the way wallets do: RFC 6979 deterministic nonces, low s, v = 27/28,
 * 65 bytes r ‖ s ‖ v. Same key and digest give the same bytes as ethers.
 */
public final class DigestSigner {

    private static final BigInteger N =
            new BigInteger("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", 16);

    private final ECKeyPair keyPair;
    private final String address;

    public DigestSigner(byte[] privateKey32) {
        if (privateKey32 == null || privateKey32.length != 32) {
            throw new IllegalArgumentException("private key must be 32 bytes");
        }
        BigInteger key = new BigInteger(1, privateKey32);
        if (key.signum() == 0 || key.compareTo(N) >= 0) {
            throw new IllegalArgumentException("private key is outside [1, n-1]");
        }
        this.keyPair = ECKeyPair.create(key);
        this.address = Addresses.fromPublicKey(Numeric.toBytesPadded(keyPair.getPublicKey(), 64));
    }

    /** Lowercase 0x + 40 hex. */
    public String address() {
        return address;
    }

    public byte[] sign(byte[] digest32) {
        if (digest32 == null || digest32.length != 32) {
            throw new IllegalArgumentException("digest must be 32 bytes");
        }
        Sign.SignatureData signature = Sign.signMessage(digest32, keyPair, false);
        byte[] out = new byte[65];
        System.arraycopy(signature.getR(), 0, out, 0, 32);
        System.arraycopy(signature.getS(), 0, out, 32, 32);
        out[64] = signature.getV()[0];
        return out;
    }

    @Override
    public String toString() {
        return "DigestSigner[" + address + "]";
    }
}
