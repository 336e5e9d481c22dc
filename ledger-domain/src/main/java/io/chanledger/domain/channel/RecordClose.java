package io.chanledger.domain.channel;

import io.chanledger.domain.chain.ChainRef;
import java.math.BigInteger;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Records a finalized {@code ChannelClosed} log. */
public record RecordClose(
        @TargetAggregateIdentifier String channelId,
        BigInteger refund,
        CloseKind kind,
        ChainRef chainRef) implements ChannelCommand {
}
