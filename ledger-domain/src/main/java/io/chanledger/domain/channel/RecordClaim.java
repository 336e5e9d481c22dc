package io.chanledger.domain.channel;

import io.chanledger.domain.chain.ChainRef;
import java.math.BigInteger;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Records a finalized {@code ChannelClaimed} log: {@code payout} is the incremental gross amount
 * of this claim, {@code fee} the protocol fee of the matching {@code FeePaid} log (zero when
 * none was emitted).
 */
public record RecordClaim(
        @TargetAggregateIdentifier String channelId,
        BigInteger payout,
        BigInteger fee,
        ChainRef chainRef) implements ChannelCommand {
}
