package io.chanledger.domain.channel;

import java.math.BigInteger;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Settles the request paid by the metered voucher {@code nonce}: {@code cost} is its metered cost
 * (zero when the request failed and nothing is owed). Releases the request's hold. The request is
 * charged at most its room: the highest voucher less the charged total and the other running
 * requests' holds, and nothing once the channel is charged above a close authorization the
 * consumer did not prove to have asked for (only one request may pass it, see the Channel
 * aggregate). {@code settledAt} in epoch seconds.
 */
public record SettleRequest(
        @TargetAggregateIdentifier String channelId,
        BigInteger nonce,
        BigInteger cost,
        long settledAt) implements ChannelCommand {

    public SettleRequest {
        MeteredRequest.requireNonNegative(cost, "a request's cost");
    }
}
