package io.chanledger.chain.ingest;

/** The last block whose logs the ledger holds completely: number, hash and timestamp. */
public record Checkpoint(long blockNumber, String blockHash, long blockTimestamp) {
}
