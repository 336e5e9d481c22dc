package io.chanledger.domain.eip712;

import java.math.BigInteger;

/** Channel ids as the contract derives them in {@code open}. */
public final class ChannelIds {

    private ChannelIds() {
    }

    /**
     * {@code keccak256(abi.encodePacked(consumer, provider, uint256 timestamp, uint256 nonce))},
     * as lowercase 0x + 64 hex. Addresses in any valid spelling.
     */
    public static String compute(String consumer, String provider, BigInteger timestamp, BigInteger nonce) {
        byte[] packed = new byte[20 + 20 + 32 + 32];
        System.arraycopy(Hex.decode(Hex.normalizeAddress(consumer)), 0, packed, 0, 20);
        System.arraycopy(Hex.decode(Hex.normalizeAddress(provider)), 0, packed, 20, 20);
        Words.putUint256(packed, 40, timestamp, "timestamp");
        Words.putUint256(packed, 72, nonce, "nonce");
        return Hex.encode(Keccak.keccak256(packed));
    }

    /** As {@link #compute(String, String, BigInteger, BigInteger)} for a block timestamp and nonce that fit a long. */
    public static String compute(String consumer, String provider, long timestamp, long nonce) {
        if (timestamp < 0 || nonce < 0) {
            throw new IllegalArgumentException("timestamp and nonce must not be negative");
        }
        return compute(consumer, provider, BigInteger.valueOf(timestamp), BigInteger.valueOf(nonce));
    }
}
