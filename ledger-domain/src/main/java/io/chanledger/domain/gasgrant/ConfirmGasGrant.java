package io.chanledger.domain.gasgrant;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The transfer {@code txHash} was mined and succeeded in {@code blockNumber}: the grant is used up. */
public record ConfirmGasGrant(
        @TargetAggregateIdentifier String wallet,
        String attemptId,
        String txHash,
        long blockNumber,
        Instant confirmedAt) {
}
