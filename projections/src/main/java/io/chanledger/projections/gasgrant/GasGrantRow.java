package io.chanledger.projections.gasgrant;

import java.math.BigInteger;
import java.time.Instant;
import java.util.Locale;

/**
 * A wallet's grant as the gas station sees it: its latest attempt and how far that got.
 * {@code faucetNonce} and {@code fromBlock} are set from the send's start, {@code txHash} once a
 * transfer may be on its way, {@code blockNumber} once it is confirmed.
 */
public record GasGrantRow(
        String wallet,
        Status status,
        String attemptId,
        BigInteger amount,
        String faucet,
        Long faucetNonce,
        Long fromBlock,
        String txHash,
        Long txNonce,
        Long blockNumber,
        String failure,
        int attempts,
        Instant reservedAt,
        Instant updatedAt) {

    public enum Status {
        RESERVED, SEND_STARTED, BROADCAST, GRANTED, FAILED;

        public String column() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Status ofColumn(String value) {
            return valueOf(value.toUpperCase(Locale.ROOT));
        }
    }

    public boolean pending() {
        return status == Status.RESERVED || status == Status.SEND_STARTED || status == Status.BROADCAST;
    }
}
