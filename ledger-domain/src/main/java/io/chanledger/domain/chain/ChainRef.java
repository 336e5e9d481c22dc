package io.chanledger.domain.chain;

import java.util.Objects;

/**
 * Where a chain-sourced fact was observed: the log's block, transaction and position. Makes every
 * chain-sourced event traceable, and lets handlers recognise a fact they have already applied.
 */
public record ChainRef(long blockNumber, String blockHash, String txHash, int logIndex) {

    public ChainRef {
        if (blockNumber < 0 || logIndex < 0) {
            throw new IllegalArgumentException("block number and log index must not be negative");
        }
        Objects.requireNonNull(blockHash, "blockHash");
        Objects.requireNonNull(txHash, "txHash");
    }

    /** True when this log comes strictly after {@code other} in chain order. */
    public boolean isAfter(ChainRef other) {
        return other == null
                || blockNumber > other.blockNumber
                || (blockNumber == other.blockNumber && logIndex > other.logIndex);
    }
}
