package io.chanledger.domain.channel;

import java.math.BigInteger;
import java.util.Optional;

/**
 * Reads a channel straight from the contract ({@code getChannel} at the latest block), for
 * vouchers that arrive before the listener has seen the channel's finalized log.
 */
public interface ChannelLookup {

    /** Empty when the contract does not know the channel (never opened, or closed and deleted). */
    Optional<OnChainChannel> find(String channelId);

    /** The contract's view of a channel at {@code blockNumber}. Addresses lowercase. */
    record OnChainChannel(String consumer, String provider, BigInteger deposit, BigInteger claimed,
                          long expiry, long blockNumber) {
    }
}
