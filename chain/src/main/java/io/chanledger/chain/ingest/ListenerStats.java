package io.chanledger.chain.ingest;

import io.chanledger.chain.rpc.BlockHeader;
import io.chanledger.chain.rpc.RpcCounters;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A listener's state and counters, as plain getters for whatever metrics system reads them.
 * Block numbers are -1 until known.
 *
 * <p>Its lag is judged against the chain's head, not only against the final block: a finality
 * rule that keeps the final block far below the head (a node whose finalized block does not move)
 * leaves the ledger as blind as a listener that cannot read at all. The view counts as behind
 * while it trails the head beyond the settings' {@link LagLimits}, and {@link #behindSince} says
 * since when.
 */
public final class ListenerStats {

    public enum State { STARTING, RUNNING, HALTED }

    /** Why a listener stopped for good; each needs an operator. */
    public enum HaltReason { CHAIN_ID_MISMATCH, SIGNING_DOMAIN_MISMATCH, REORG, CHAIN_FACT_CONFLICT }

    /** The head seen by the last judgement, the view judged against it, and since when it has been behind. */
    private record Lag(long headBlock, long headTimestamp, Checkpoint view, Instant behindSince) {
    }

    private final RpcCounters rpc;
    private final LagLimits limits;
    private final long startBlock;
    private final AtomicLong finalizedBlock = new AtomicLong(-1);
    private final AtomicLong checkpointBlock = new AtomicLong(-1);
    private final AtomicLong polls = new AtomicLong();
    private final AtomicLong failedPolls = new AtomicLong();
    private final AtomicLong consecutiveFailures = new AtomicLong();
    private final AtomicLong logsIngested = new AtomicLong();
    private final AtomicLong batches = new AtomicLong();
    private final AtomicLong unknownTopics = new AtomicLong();
    private final AtomicLong adminLogsSkipped = new AtomicLong();
    private final AtomicLong rangeShrinks = new AtomicLong();
    private final AtomicLong firstBatchStartNanos = new AtomicLong();
    private final AtomicLong lastBatchEndNanos = new AtomicLong();
    private volatile State state = State.STARTING;
    private volatile HaltReason haltReason;
    private volatile String haltDetail;
    private volatile String lastFailure;
    private volatile Lag lag;

    /** Counters of a listener that judges its lag by {@code limits}, reading from {@code startBlock}. */
    public ListenerStats(RpcCounters rpc, LagLimits limits, long startBlock) {
        this.rpc = rpc;
        this.limits = limits;
        this.startBlock = startBlock;
    }

    public State state() {
        return state;
    }

    public HaltReason haltReason() {
        return haltReason;
    }

    public String haltDetail() {
        return haltDetail;
    }

    /** The message of the latest failed poll, or null. */
    public String lastFailure() {
        return lastFailure;
    }

    public long finalizedBlock() {
        return finalizedBlock.get();
    }

    public long checkpointBlock() {
        return checkpointBlock.get();
    }

    /** Final blocks not ingested yet. */
    public long lagBlocks() {
        long finalized = finalizedBlock.get();
        return finalized < 0 ? 0 : Math.max(0, finalized - checkpointBlock.get());
    }

    /** The chain's head at the last poll. */
    public long headBlock() {
        Lag current = lag;
        return current == null ? -1 : current.headBlock();
    }

    /** Blocks between what the ledger has recorded and the chain's head (0 until a head is known). */
    public long blocksBehind() {
        Lag current = lag;
        if (current == null) {
            return 0;
        }
        long seen = current.view() == null ? startBlock - 1 : current.view().blockNumber();
        return Math.max(0, current.headBlock() - seen);
    }

    /** Chain time between the last block the ledger has recorded and the head; -1 until both are known. */
    public long secondsBehind() {
        Lag current = lag;
        return current == null || current.view() == null ? -1
                : Math.max(0, current.headTimestamp() - current.view().blockTimestamp());
    }

    /** Since when the ledger's view has trailed the head beyond the lag limits; null while it does not. */
    public Instant behindSince() {
        Lag current = lag;
        return current == null ? null : current.behindSince();
    }

    public boolean behind() {
        return behindSince() != null;
    }

    public LagLimits lagLimits() {
        return limits;
    }

    public long polls() {
        return polls.get();
    }

    public long failedPolls() {
        return failedPolls.get();
    }

    public long consecutiveFailures() {
        return consecutiveFailures.get();
    }

    /** Channel logs recorded (opened, claimed, closed, fee paid). */
    public long logsIngested() {
        return logsIngested.get();
    }

    public long batches() {
        return batches.get();
    }

    public long unknownTopics() {
        return unknownTopics.get();
    }

    public long adminLogsSkipped() {
        return adminLogsSkipped.get();
    }

    public long rangeShrinks() {
        return rangeShrinks.get();
    }

    /** Failed JSON-RPC requests, retried or not. */
    public long rpcFailures() {
        return rpc.failures();
    }

    public RpcCounters rpc() {
        return rpc;
    }

    /** Nanoseconds from the start of the first batch to the end of the latest one (0 before any). */
    public long ingestNanos() {
        long first = firstBatchStartNanos.get();
        return first == 0 ? 0 : lastBatchEndNanos.get() - first;
    }

    void running() {
        if (state == State.STARTING) {
            state = State.RUNNING;
        }
    }

    void halted(HaltReason reason, String detail) {
        haltReason = reason;
        haltDetail = detail;
        state = State.HALTED;
    }

    void pollStarted() {
        polls.incrementAndGet();
    }

    void pollSucceeded() {
        consecutiveFailures.set(0);
        lastFailure = null;
    }

    void pollFailed(String failure) {
        failedPolls.incrementAndGet();
        consecutiveFailures.incrementAndGet();
        lastFailure = failure;
    }

    void finalizedBlock(long block) {
        finalizedBlock.set(block);
    }

    void checkpoint(long block) {
        checkpointBlock.set(block);
    }

    /**
     * Judges the ledger's view ({@code view}: what it has recorded, null for nothing) against the
     * chain's head; a view still behind keeps the instant it fell behind.
     */
    void lag(BlockHeader head, Checkpoint view) {
        Lag previous = lag;
        Instant since = null;
        if (limits.behind(head.number(), head.timestamp(), view, startBlock)) {
            since = previous != null && previous.behindSince() != null ? previous.behindSince() : Instant.now();
        }
        lag = new Lag(head.number(), head.timestamp(), view, since);
    }

    void batchStarted() {
        firstBatchStartNanos.compareAndSet(0, System.nanoTime());
    }

    void batchCommitted(int recordedLogs) {
        batches.incrementAndGet();
        logsIngested.addAndGet(recordedLogs);
        lastBatchEndNanos.set(System.nanoTime());
    }

    void skipped(long unknown, long admin) {
        unknownTopics.addAndGet(unknown);
        adminLogsSkipped.addAndGet(admin);
    }

    void rangeShrunk() {
        rangeShrinks.incrementAndGet();
    }
}
