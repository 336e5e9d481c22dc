package io.chanledger.domain.channel;

import java.math.BigInteger;

/**
 * The running request of metered voucher {@code nonce} now holds {@code hold} base units (more
 * than before) until it is settled or its hold lapses. {@code raisedAt} in epoch seconds.
 */
public record HoldRaised(
        String channelId,
        BigInteger nonce,
        BigInteger hold,
        long raisedAt) implements ChannelEvent {
}
