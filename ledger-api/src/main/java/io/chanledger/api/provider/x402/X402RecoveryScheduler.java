package io.chanledger.api.provider.x402;

import io.chanledger.chain.ingest.Finality;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link ProviderFacilitator#recoverUnfinished()} at start and then every {@code interval} on
 * a thread of its own: after a restart, the settlements the previous process left are finished;
 * then {@link ProviderFacilitator#confirmFinal(Finality)}, which confirms the settlements the
 * chain listener's final blocks hold.
 */
final class X402RecoveryScheduler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(X402RecoveryScheduler.class);

    private final ProviderFacilitator facilitator;
    private final Duration interval;
    private final Finality finality;
    private ScheduledExecutorService executor;

    /** {@code finality}: the chain listener's rule of which blocks are final, for confirmations. */
    X402RecoveryScheduler(ProviderFacilitator facilitator, Duration interval, Finality finality) {
        this.facilitator = facilitator;
        this.interval = interval;
        this.finality = finality;
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
            facilitator.confirmFinal(finality);
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
