package io.chanledger.domain.gasgrant;

import java.math.BigInteger;
import java.time.Instant;

/** Attempt {@code attemptId} holds the wallet's grant; nothing has been signed yet. Amount in wei. */
public record GasGrantReserved(String wallet, String attemptId, BigInteger amount, Instant requestedAt) {
}
