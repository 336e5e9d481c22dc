package io.chanledger.chain.rpc;

import java.util.concurrent.atomic.AtomicLong;

/** What a {@link JsonRpcClient} has done so far; read by metrics. */
public final class RpcCounters {

    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();
    private final AtomicLong exhausted = new AtomicLong();

    void request() {
        requests.incrementAndGet();
    }

    void failure() {
        failures.incrementAndGet();
    }

    void retry() {
        retries.incrementAndGet();
    }

    void giveUp() {
        exhausted.incrementAndGet();
    }

    /** HTTP requests sent (a batch counts once). */
    public long requests() {
        return requests.get();
    }

    /** Requests that failed, transiently or not, including those retried successfully later. */
    public long failures() {
        return failures.get();
    }

    public long retries() {
        return retries.get();
    }

    /** Calls that still failed after the last allowed attempt. */
    public long exhausted() {
        return exhausted.get();
    }
}
