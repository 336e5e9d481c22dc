package io.chanledger.domain.channel;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Marks a channel expired once the finalized chain time passed its expiry. {@code chainTime} is
 * the timestamp of finalized block {@code blockNumber}.
 */
public record ExpireChannel(
        @TargetAggregateIdentifier String channelId,
        long chainTime,
        long blockNumber) implements ChannelCommand {
}
