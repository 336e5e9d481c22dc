package io.chanledger.testsupport;

import java.math.BigInteger;

/** The contract's {@code getChannel} answer; addresses lowercase. All zero for a closed or unknown channel. */
public record ChannelState(String consumer, String provider, BigInteger deposit, BigInteger claimed, BigInteger expiry) {

    private static final String ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

    public boolean exists() {
        return !ZERO_ADDRESS.equals(consumer);
    }
}
