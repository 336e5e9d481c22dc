package io.chanledger.domain.channel;

import java.math.BigInteger;

/**
 * The channel contract's view of a channel ({@code getChannel}) at {@code blockNumber}. Addresses
 * lowercase. The contract answers all zero for a channel it does not hold (never opened, or closed
 * and deleted).
 */
public record OnChainChannel(String consumer, String provider, BigInteger deposit, BigInteger claimed, long expiry,
                             long blockNumber) {

    private static final String ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

    /** Whether the contract holds the channel: a channel it does not hold has no consumer. */
    public boolean exists() {
        return !ZERO_ADDRESS.equals(consumer);
    }
}
