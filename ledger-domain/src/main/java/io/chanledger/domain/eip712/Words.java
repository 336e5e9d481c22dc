package io.chanledger.domain.eip712;

import io.chanledger.domain.money.Uint256;
import java.math.BigInteger;

/** ABI words: 32-byte big-endian slots. */
final class Words {

    private Words() {
    }

    /** Writes {@code value} as a uint256 word; refuses what a uint256 cannot hold. */
    static void putUint256(byte[] buffer, int offset, BigInteger value, String what) {
        if (value == null) {
            throw new IllegalArgumentException(what + " is missing");
        }
        if (value.signum() < 0 || value.compareTo(Uint256.MAX) > 0) {
            throw new IllegalArgumentException(what + " is outside the uint256 range");
        }
        byte[] raw = value.toByteArray();
        // toByteArray may carry a leading sign byte (for 2^255 and above) that is not part of the word
        int skip = raw.length > 32 ? raw.length - 32 : 0;
        int length = raw.length - skip;
        System.arraycopy(raw, skip, buffer, offset + 32 - length, length);
    }

    static void putUint256(byte[] buffer, int offset, long value) {
        for (int i = 0; i < 8; i++) {
            buffer[offset + 31 - i] = (byte) (value >>> (8 * i));
        }
    }

    static void putBytes32(byte[] buffer, int offset, byte[] value, String what) {
        if (value == null || value.length != 32) {
            throw new IllegalArgumentException(what + " must be 32 bytes");
        }
        System.arraycopy(value, 0, buffer, offset, 32);
    }
}
