package io.chanledger.api.marketplace.gasstation;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link GrantRecovery#resolvePending()} every {@code interval} on a thread of its own, from
 * startup on: after a restart, the attempts the previous process left pending are settled here.
 * Does nothing when the gas station is disabled ({@code recovery} null).
 */
class GrantRecoveryScheduler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GrantRecoveryScheduler.class);

    private final GrantRecovery recovery;
    private final Duration interval;
    private ScheduledExecutorService executor;

    GrantRecoveryScheduler(GrantRecovery recovery, Duration interval) {
        this.recovery = recovery;
        this.interval = interval;
    }

    synchronized void start() {
        if (executor != null || recovery == null) {
            return;
        }
        executor = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "gas-grant-recovery");
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(this::pass, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void pass() {
        try {
            int settled = recovery.resolvePending();
            if (settled > 0) {
                log.info("gas station: settled {} pending grant(s) from the chain", settled);
            }
        } catch (RuntimeException e) {
            log.warn("gas station: recovery pass failed: {}", e.toString());
        }
    }

    @Override
    public synchronized void close() {
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }
}
