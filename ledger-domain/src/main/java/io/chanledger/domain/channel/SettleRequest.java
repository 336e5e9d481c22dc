package io.chanledger.domain.channel;

import java.math.BigInteger;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Settles the request paid by the metered voucher {@code nonce}: {@code cost} is its metered cost
 * (zero when the request failed and nothing is owed). Releases the request's hold. The request is
 * charged at most its room: the highest voucher less the charged total and the other running
 * requests' holds, and, while a close authorization the consumer did not prove to have asked for
 * is outstanding, no more than {@code closeExposure} above it (as {@link MeteredRequest} bounds
 * admissions). {@code settledAt} in epoch seconds.
 */
public record SettleRequest(
        @TargetAggregateIdentifier String channelId,
        BigInteger nonce,
        BigInteger cost,
        long settledAt,
        BigInteger closeExposure) implements ChannelCommand {

    public SettleRequest(String channelId, BigInteger nonce, BigInteger cost, long settledAt) {
        this(channelId, nonce, cost, settledAt, MeteredRequest.DEFAULT_CLOSE_EXPOSURE);
    }

    public SettleRequest {
        MeteredRequest.requireNonNegative(cost, "a request's cost");
        MeteredRequest.requireNonNegative(closeExposure, "the close exposure");
    }
}
