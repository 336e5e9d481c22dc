package io.chanledger.domain.gasgrant;

import java.time.Instant;

/** The attempt paid nothing; the grant is available again. */
public record GasGrantFailed(String wallet, String attemptId, GasGrantFailure reason, String txHash, String detail,
                             Instant failedAt) {
}
