package io.chanledger.domain.channel;

import io.chanledger.domain.chain.ChainRef;
import java.math.BigInteger;

/**
 * The provider claimed on-chain: {@code payout} is the gross increment of this claim, of which
 * {@code fee} went to the protocol; {@code totalClaimed} is the channel's claimed total after it.
 */
public record ChannelClaimed(
        String channelId,
        String provider,
        BigInteger payout,
        BigInteger fee,
        BigInteger totalClaimed,
        ChainRef chainRef) implements ChannelEvent {
}
