package io.chanledger.domain.eip712;

import java.math.BigInteger;
import java.util.Arrays;
import org.web3j.crypto.ECDSASignature;
import org.web3j.crypto.Sign;
import org.web3j.utils.Numeric;

/** Pure-Java recovery (web3j over BouncyCastle): runs everywhere, the fallback. */
final class Web3jRecovery implements Secp256k1Recovery {

    static final Web3jRecovery INSTANCE = new Web3jRecovery();

    private Web3jRecovery() {
    }

    @Override
    public byte[] recoverPublicKey(byte[] digest32, byte[] rs64, int recoveryId) {
        BigInteger r = new BigInteger(1, Arrays.copyOfRange(rs64, 0, 32));
        BigInteger s = new BigInteger(1, Arrays.copyOfRange(rs64, 32, 64));
        try {
            BigInteger key = Sign.recoverFromSignature(recoveryId, new ECDSASignature(r, s), digest32);
            return key == null ? null : Numeric.toBytesPadded(key, 64);
        } catch (RuntimeException e) {
            // BouncyCastle refuses to decompress an x that is not on the curve
            return null;
        }
    }

    @Override
    public String description() {
        return "web3j pure Java (BouncyCastle)";
    }
}
