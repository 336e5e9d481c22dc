package io.chanledger.domain.channel;

import io.chanledger.domain.chain.ChainRef;
import java.math.BigInteger;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Records a finalized {@code ChannelOpened} log. Confirms a provisionally opened channel. */
public record OpenChannel(
        @TargetAggregateIdentifier String channelId,
        String consumer,
        String provider,
        BigInteger deposit,
        long expiry,
        ChainRef chainRef) implements ChannelCommand {
}
