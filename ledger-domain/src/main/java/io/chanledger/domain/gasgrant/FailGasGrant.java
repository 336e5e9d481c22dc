package io.chanledger.domain.gasgrant;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * The attempt paid nothing, for the reason the chain shows ({@link GasGrantFailure}); the wallet
 * may ask again. {@code txHash} names the transaction the reason is about, when there is one.
 *
 * <p>{@code sendStarted} says what the failure was judged on: an attempt whose send had started
 * (its faucet nonce and first block recorded), or one still only reserved. Whoever judges from a
 * read model may read it behind the ledger; the aggregate refuses a failure judged on a state the
 * attempt has left, so that "the request ended before the send started", read from a row that
 * did not yet show the start, cannot release an attempt whose transfer may be on its way.
 */
public record FailGasGrant(
        @TargetAggregateIdentifier String wallet,
        String attemptId,
        GasGrantFailure reason,
        String txHash,
        String detail,
        Instant failedAt,
        boolean sendStarted) {
}
