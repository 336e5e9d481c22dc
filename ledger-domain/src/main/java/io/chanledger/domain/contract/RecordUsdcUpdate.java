package io.chanledger.domain.contract;

import io.chanledger.domain.chain.ChainRef;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Records a finalized {@code USDCUpdated(oldUsdc, newUsdc)} log of the channel contract
 * {@code contractId} ({@link ContractSettings#idOf}): from this log on, the contract moves
 * {@code usdc} instead of {@code previousUsdc}.
 */
public record RecordUsdcUpdate(
        @TargetAggregateIdentifier String contractId,
        String previousUsdc,
        String usdc,
        ChainRef chainRef) {
}
