package io.chanledger.chain.ingest;

import java.util.Locale;

/**
 * One listener's configuration. {@code listenerId} keys its checkpoint and expiry table, so two
 * listeners of different chains or contracts can share a database. {@code maxLogsPerBatch}
 * bounds a transaction: a range with more logs is committed in several batches, cut at block
 * boundaries. {@code lagLimits} say when the ledger's view counts as behind the chain's head
 * ({@link ListenerStats#behindSince()}).
 */
public record ListenerSettings(String listenerId, long chainId, String contract, Finality finality, int maxBlockRange,
                               long startBlock, int maxLogsPerBatch, LagLimits lagLimits) {

    /** A listener whose lag nobody judges ({@link LagLimits#NONE}). */
    public ListenerSettings(String listenerId, long chainId, String contract, Finality finality, int maxBlockRange,
                            long startBlock, int maxLogsPerBatch) {
        this(listenerId, chainId, contract, finality, maxBlockRange, startBlock, maxLogsPerBatch, LagLimits.NONE);
    }

    public ListenerSettings {
        if (listenerId == null || listenerId.isBlank()) {
            throw new IllegalArgumentException("a listener needs an id");
        }
        if (contract == null || !contract.matches("0x[0-9a-fA-F]{40}")) {
            throw new IllegalArgumentException("the channel contract address must be 0x followed by 40 hex digits");
        }
        if (maxBlockRange < 1 || maxLogsPerBatch < 1 || startBlock < 0) {
            throw new IllegalArgumentException("block range and batch size must be positive, start block not negative");
        }
        if (lagLimits == null) {
            throw new IllegalArgumentException("a listener needs lag limits (LagLimits.NONE for none)");
        }
        contract = contract.toLowerCase(Locale.ROOT);
    }

    /** The id a listener gets unless configured otherwise: one checkpoint per chain and contract. */
    public static String defaultId(long chainId, String contract) {
        return chainId + ":" + contract.toLowerCase(Locale.ROOT);
    }
}
