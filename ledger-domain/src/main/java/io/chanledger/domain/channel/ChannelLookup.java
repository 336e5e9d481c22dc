package io.chanledger.domain.channel;

import java.util.Optional;

/**
 * Reads a channel straight from the contract ({@code getChannel} at the latest block), for
 * vouchers that arrive before the listener has seen the channel's finalized log.
 */
public interface ChannelLookup {

    /** Empty when the contract does not know the channel (never opened, or closed and deleted). */
    Optional<OnChainChannel> find(String channelId);
}
