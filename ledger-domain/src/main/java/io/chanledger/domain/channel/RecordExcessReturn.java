package io.chanledger.domain.channel;

import io.chanledger.domain.chain.ChainRef;
import java.math.BigInteger;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Records a mined USDC transfer of {@code amount} from the provider to the channel's consumer
 * that gave back what the chain paid above the charged total; {@code chainRef} is its
 * {@code Transfer} log. Recording the same transfer twice changes nothing.
 */
public record RecordExcessReturn(
        @TargetAggregateIdentifier String channelId,
        BigInteger amount,
        ChainRef chainRef) implements ChannelCommand {
}
