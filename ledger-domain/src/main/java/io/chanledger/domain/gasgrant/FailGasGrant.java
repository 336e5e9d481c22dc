package io.chanledger.domain.gasgrant;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * The attempt paid nothing, for the reason the chain shows ({@link GasGrantFailure}); the wallet
 * may ask again. {@code txHash} names the transaction the reason is about, when there is one.
 */
public record FailGasGrant(
        @TargetAggregateIdentifier String wallet,
        String attemptId,
        GasGrantFailure reason,
        String txHash,
        String detail,
        Instant failedAt) {
}
