package io.chanledger.domain.gasgrant;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * The transfer may have reached the node: its hash is known, and its nonce when the sender
 * reported it ({@code txNonce} null otherwise). Not a payment yet.
 */
public record RecordGasGrantBroadcast(
        @TargetAggregateIdentifier String wallet,
        String attemptId,
        String txHash,
        Long txNonce) {
}
