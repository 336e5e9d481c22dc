package io.chanledger.domain.gasgrant;

import java.math.BigInteger;
import java.time.Instant;

/** The wallet received {@code amount} wei in the mined, successful transfer {@code txHash}. Final. */
public record GasGranted(String wallet, String attemptId, String txHash, BigInteger amount, long blockNumber,
                         Instant grantedAt) {
}
