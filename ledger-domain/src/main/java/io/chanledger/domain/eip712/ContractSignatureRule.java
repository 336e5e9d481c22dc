package io.chanledger.domain.eip712;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The signature rule of the deployed channel contract: exactly 65 bytes r ‖ s ‖ v; s ≤ n/2;
 * v in {0, 1, 27, 28} (27 is added below 27); r and s in [1, n-1] with r the x-coordinate of a
 * curve point, and never the zero address. The ledger must accept exactly this set: a voucher
 * it accepts that the contract refuses is money the provider can never collect. Checks run in
 * the contract's order, so the reason matches what the chain would say.
 */
public final class ContractSignatureRule {

    private static final byte[] N =
            Hex.decode("0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
    private static final byte[] HALF_N =
            Hex.decode("0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0");
    private static final String ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

    private ContractSignatureRule() {
    }

    /**
     * The contract's verdict on {@code signature} over {@code digest32}. Any signature bytes give a
     * verdict rather than an exception; only a digest that is not 32 bytes (IllegalArgumentException)
     * or a null signature (NullPointerException) are refused as programming errors.
     */
    public static SignatureVerdict recover(byte[] digest32, byte[] signature) {
        return recover(digest32, signature, Preferred.RECOVERY);
    }

    /** Which secp256k1 implementation recovery runs on in this process. */
    public static String implementation() {
        return Preferred.RECOVERY.description();
    }

    static SignatureVerdict recover(byte[] digest32, byte[] signature, Secp256k1Recovery recovery) {
        if (digest32 == null || digest32.length != 32) {
            throw new IllegalArgumentException("digest must be 32 bytes");
        }
        Objects.requireNonNull(signature, "signature");
        if (signature.length != 65) {
            return new SignatureVerdict.Rejected(SignatureRejection.INVALID_LENGTH);
        }
        if (Arrays.compareUnsigned(signature, 32, 64, HALF_N, 0, 32) > 0) {
            return new SignatureVerdict.Rejected(SignatureRejection.HIGH_S);
        }
        int v = signature[64] & 0xff;
        if (v < 27) {
            v += 27;
        }
        if (v != 27 && v != 28) {
            return new SignatureVerdict.Rejected(SignatureRejection.INVALID_V);
        }
        if (!inScalarRange(signature, 0) || !inScalarRange(signature, 32)) {
            return new SignatureVerdict.Rejected(SignatureRejection.INVALID_SIGNATURE);
        }
        byte[] publicKey = recovery.recoverPublicKey(digest32, Arrays.copyOf(signature, 64), v - 27);
        if (publicKey == null) {
            return new SignatureVerdict.Rejected(SignatureRejection.INVALID_SIGNATURE);
        }
        String signer = Addresses.fromPublicKey(publicKey);
        if (signer.equals(ZERO_ADDRESS)) {
            return new SignatureVerdict.Rejected(SignatureRejection.INVALID_SIGNATURE);
        }
        return new SignatureVerdict.Recovered(signer);
    }

    /** 1 ≤ value < n for the 32-byte big-endian scalar at {@code offset}. */
    private static boolean inScalarRange(byte[] signature, int offset) {
        boolean zero = true;
        for (int i = offset; i < offset + 32 && zero; i++) {
            zero = signature[i] == 0;
        }
        return !zero && Arrays.compareUnsigned(signature, offset, offset + 32, N, 0, 32) < 0;
    }

    /** Chosen once per process: native when it loads and passes its known answer, else pure Java. */
    static final class Preferred {

        private static final Logger LOG = LoggerFactory.getLogger(ContractSignatureRule.class);

        static final Secp256k1Recovery RECOVERY = choose(NativeRecovery::load);

        private Preferred() {
        }

        static Secp256k1Recovery choose(Supplier<? extends Secp256k1Recovery> nativeLoader) {
            try {
                return nativeLoader.get();
            } catch (RuntimeException | LinkageError e) {
                LOG.warn("Native libsecp256k1 unavailable ({}); signature recovery falls back to {}, several times slower",
                        e.toString(), Web3jRecovery.INSTANCE.description());
                return Web3jRecovery.INSTANCE;
            }
        }
    }
}
