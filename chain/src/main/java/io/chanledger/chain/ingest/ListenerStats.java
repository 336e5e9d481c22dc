package io.chanledger.chain.ingest;

import io.chanledger.chain.rpc.RpcCounters;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A listener's state and counters, as plain getters for whatever metrics system reads them.
 * Block numbers are -1 until known.
 */
public final class ListenerStats {

    public enum State { STARTING, RUNNING, HALTED }

    /** Why a listener stopped for good; each needs an operator. */
    public enum HaltReason { CHAIN_ID_MISMATCH, SIGNING_DOMAIN_MISMATCH, REORG, CHAIN_FACT_CONFLICT }

    private final RpcCounters rpc;
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

    public ListenerStats(RpcCounters rpc) {
        this.rpc = rpc;
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
