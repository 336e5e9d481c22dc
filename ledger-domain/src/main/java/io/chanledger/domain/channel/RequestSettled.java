package io.chanledger.domain.channel;

import java.math.BigInteger;

/**
 * A paid request was settled: it cost {@code cost}, of which {@code charged} was charged to the
 * channel (less only when the vouched amount did not cover the cost), bringing what the channel
 * has been charged to {@code chargedTotal}. The hold of voucher {@code nonce} is released.
 */
public record RequestSettled(
        String channelId,
        BigInteger nonce,
        BigInteger cost,
        BigInteger charged,
        BigInteger chargedTotal,
        long settledAt) implements ChannelEvent {
}
