package io.chanledger.projections.rebuild;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** CPU time each thread of the rebuild used, for the log line that tells where the time went. */
final class CpuTimes {

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final AtomicLong reading = new AtomicLong();
    private final AtomicLong folding = new AtomicLong();
    private final AtomicLong writing = new AtomicLong();

    interface Work {
        void run() throws Exception;
    }

    void reading(Work work, AtomicReference<Throwable> failure) {
        timed(work, reading, failure);
    }

    void writing(Work work, AtomicReference<Throwable> failure) {
        timed(work, writing, failure);
    }

    long now() {
        return threads.getCurrentThreadCpuTime();
    }

    void addReading(long nanos) {
        reading.addAndGet(nanos);
    }

    void folded(long since) {
        folding.set(now() - since);
    }

    /** The CPU time of each part, for the rebuild's log line. */
    @Override
    public String toString() {
        return "CPU time: reading " + reading.get() / 1_000_000 + " ms, folding " + folding.get() / 1_000_000
                + " ms, writing " + writing.get() / 1_000_000 + " ms";
    }

    private void timed(Work work, AtomicLong total, AtomicReference<Throwable> failure) {
        long start = now();
        try {
            work.run();
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
        } finally {
            total.addAndGet(now() - start);
        }
    }
}
