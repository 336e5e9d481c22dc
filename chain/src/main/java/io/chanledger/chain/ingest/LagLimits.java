package io.chanledger.chain.ingest;

/**
 * How far the ledger's view of the chain (what the listener has recorded, up to its checkpoint)
 * may trail the chain's head before it counts as behind: more than {@code maxBlocks} blocks, or
 * more than {@code maxSeconds} of chain time (the head's timestamp minus the checkpoint block's).
 * The finality rule's normal lag must stay within both: on Polygon the finalized block trails the
 * head by tens of blocks, in depth mode by {@code depth} blocks.
 */
public record LagLimits(long maxBlocks, long maxSeconds) {

    /** Never behind: for listeners whose lag nobody judges (tools, tests). */
    public static final LagLimits NONE = new LagLimits(Long.MAX_VALUE, Long.MAX_VALUE);

    public LagLimits {
        if (maxBlocks < 0 || maxSeconds < 0) {
            throw new IllegalArgumentException("lag limits must not be negative");
        }
    }

    /**
     * Whether a view ending at {@code view} is behind a head of {@code headBlock} at
     * {@code headTimestamp}. A view of nothing ({@code null}: nothing recorded, and no block before
     * the start block to stand for it) is behind as soon as the head has reached {@code startBlock}:
     * there is something the ledger has not seen.
     */
    public boolean behind(long headBlock, long headTimestamp, Checkpoint view, long startBlock) {
        if (this == NONE) {
            return false;
        }
        if (view == null) {
            return headBlock >= startBlock;
        }
        return headBlock - view.blockNumber() > maxBlocks || headTimestamp - view.blockTimestamp() > maxSeconds;
    }
}
