package io.chanledger.domain.channel;

import java.math.BigInteger;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Asks for the running request of metered voucher {@code nonce} to hold {@code wanted} base units
 * in all, because it is about to be charged more than it holds: a streamed answer whose next
 * chunk would pass its hold. The Channel aggregate grants what the channel's room allows (see
 * {@link SettleRequest} for the room) and answers the hold the request now has, never less than
 * before; zero when the request is not running. {@code raisedAt} in epoch seconds.
 */
public record RaiseHold(
        @TargetAggregateIdentifier String channelId,
        BigInteger nonce,
        BigInteger wanted,
        long raisedAt) implements ChannelCommand {

    public RaiseHold {
        MeteredRequest.requireNonNegative(wanted, "a hold");
    }
}
