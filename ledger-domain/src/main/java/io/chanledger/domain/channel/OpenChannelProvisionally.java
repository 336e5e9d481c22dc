package io.chanledger.domain.channel;

import java.math.BigInteger;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Opens a channel the listener has not seen final yet, from the contract's {@code getChannel}
 * at the latest block, so that a voucher for a fresh channel is not refused. {@code claimed} is
 * what the contract had already paid out then: later vouchers must exceed it to be claimable.
 */
public record OpenChannelProvisionally(
        @TargetAggregateIdentifier String channelId,
        String consumer,
        String provider,
        BigInteger deposit,
        BigInteger claimed,
        long expiry,
        long observedAtBlock) implements ChannelCommand {
}
