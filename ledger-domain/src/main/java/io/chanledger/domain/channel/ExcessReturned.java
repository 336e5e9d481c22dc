package io.chanledger.domain.channel;

import io.chanledger.domain.chain.ChainRef;
import java.math.BigInteger;

/**
 * The provider gave {@code amount} back to the consumer with a USDC transfer, because the chain
 * paid it more than the gateway charged the channel: a claim can only be made with an amount the
 * consumer signed, and vouchers run ahead of what was charged. {@code chainRef} is the transfer's
 * {@code Transfer} log. Over a channel's life, claimed − returned = charged once it has ended.
 */
public record ExcessReturned(
        String channelId,
        String consumer,
        BigInteger amount,
        ChainRef chainRef) implements ChannelEvent {
}
