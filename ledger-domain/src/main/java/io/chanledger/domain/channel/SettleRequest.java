package io.chanledger.domain.channel;

import java.math.BigInteger;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Settles the request paid by the metered voucher {@code nonce}: {@code cost} is its metered cost
 * (zero when the request failed and nothing is owed). Releases the request's hold.
 * {@code settledAt} in epoch seconds.
 */
public record SettleRequest(
        @TargetAggregateIdentifier String channelId,
        BigInteger nonce,
        BigInteger cost,
        long settledAt) implements ChannelCommand {
}
