package io.chanledger.api.provider.x402;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link ProviderFacilitator#recoverUnfinished()} at start and then every {@code interval} on
 * a thread of its own: after a restart, the settlements the previous process left are finished.
 */
final class X402RecoveryScheduler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(X402RecoveryScheduler.class);

    private final ProviderFacilitator facilitator;
    private final Duration interval;
    private ScheduledExecutorService executor;

    X402RecoveryScheduler(ProviderFacilitator facilitator, Duration interval) {
        this.facilitator = facilitator;
        this.interval = interval;
    }

    synchronized void start() {
        if (executor != null) {
            return;
        }
        executor = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "x402-recovery");
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(this::pass, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void pass() {
        try {
            int done = facilitator.recoverUnfinished();
            if (done > 0) {
                log.info("x402: finished {} payment(s) left unfinished", done);
            }
        } catch (RuntimeException e) {
            log.warn("x402: recovery pass failed: {}", e.toString());
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
