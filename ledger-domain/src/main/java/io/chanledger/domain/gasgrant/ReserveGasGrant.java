package io.chanledger.domain.gasgrant;

import java.math.BigInteger;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Claims the wallet's one grant for a send attempt ({@code attemptId}, chosen by the caller).
 * Refused while another attempt is pending and once a transfer is confirmed.
 */
public record ReserveGasGrant(
        @TargetAggregateIdentifier String wallet,
        String attemptId,
        BigInteger amount,
        Instant requestedAt) {
}
