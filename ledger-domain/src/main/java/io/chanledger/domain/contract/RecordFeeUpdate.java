package io.chanledger.domain.contract;

import io.chanledger.domain.chain.ChainRef;
import java.math.BigInteger;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Records a finalized {@code FeeUpdated(feeRecipient, feeBps)} log of the channel contract
 * {@code contractId} ({@link ContractSettings#idOf}): from this log on, claims pay {@code feeBps}
 * basis points of their payout to {@code feeRecipient}.
 */
public record RecordFeeUpdate(
        @TargetAggregateIdentifier String contractId,
        String feeRecipient,
        BigInteger feeBps,
        ChainRef chainRef) {
}
