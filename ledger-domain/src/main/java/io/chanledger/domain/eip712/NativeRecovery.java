package io.chanledger.domain.eip712;

import fr.acinq.secp256k1.Secp256k1;
import java.util.Arrays;

/** Recovery through libsecp256k1 (JNI): three to four times the recoveries per CPU-second of the pure-Java path (BENCHMARKS.md). */
final class NativeRecovery implements Secp256k1Recovery {

    private final Secp256k1 secp256k1;

    private NativeRecovery(Secp256k1 secp256k1) {
        this.secp256k1 = secp256k1;
    }

    /**
     * Loads the native library and proves it on a known signature. Throws when it cannot load
     * on this platform (the JNI jar only ships Linux binaries here): a LinkageError from the
     * binding's static initialiser, or an IllegalStateException.
     */
    static NativeRecovery load() {
        NativeRecovery recovery = new NativeRecovery(Secp256k1.Companion.get());
        if (!recovery.passesKnownAnswer()) {
            throw new IllegalStateException("libsecp256k1 recovered the wrong key on a known signature");
        }
        return recovery;
    }

    @Override
    public byte[] recoverPublicKey(byte[] digest32, byte[] rs64, int recoveryId) {
        try {
            byte[] uncompressed = secp256k1.ecdsaRecover(rs64, digest32, recoveryId);
            if (uncompressed == null || uncompressed.length != 65 || uncompressed[0] != 0x04) {
                return null;
            }
            return Arrays.copyOfRange(uncompressed, 1, 65);
        } catch (RuntimeException e) {
            // the binding throws when r is not the x-coordinate of a curve point
            return null;
        }
    }

    @Override
    public String description() {
        return "libsecp256k1 via JNI (fr.acinq.secp256k1)";
    }

    private boolean passesKnownAnswer() {
        byte[] key = recoverPublicKey(KnownAnswer.DIGEST, KnownAnswer.RS, KnownAnswer.RECOVERY_ID);
        return key != null && KnownAnswer.SIGNER.equals(Addresses.fromPublicKey(key));
    }
}
