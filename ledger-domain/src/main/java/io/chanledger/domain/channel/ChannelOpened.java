package io.chanledger.domain.channel;

import io.chanledger.domain.chain.ChainRef;
import java.math.BigInteger;

/**
 * A channel exists. {@code chainRef} is null when it was opened provisionally from a
 * {@code getChannel} lookup; {@link ChannelOpenConfirmed} follows once the log is final.
 * {@code claimedAtOpen} is what the contract had paid out when the ledger first saw the channel.
 */
public record ChannelOpened(
        String channelId,
        String consumer,
        String provider,
        BigInteger deposit,
        long expiry,
        ChainRef chainRef,
        boolean provisional,
        BigInteger claimedAtOpen) implements ChannelEvent {
}
