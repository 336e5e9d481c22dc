package io.chanledger.chain.ingest;

import io.chanledger.chain.rpc.RpcException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link ChainListener} on one thread of its own: a poll, then a pause of the poll interval,
 * and so on. After failures the pause doubles up to {@code maxBackoff}. A failure is logged once
 * with its context when a streak starts and again when the cause changes; recovery is logged too.
 * A halted listener is not polled again.
 */
public final class ListenerRunner implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ListenerRunner.class);
    private static final Duration STOP_GRACE = Duration.ofSeconds(15);

    private final ChainListener listener;
    private final Duration pollInterval;
    private final Duration maxBackoff;
    private final ReentrantLock polling = new ReentrantLock();
    private ScheduledExecutorService scheduler;
    private volatile boolean paused;
    private volatile boolean stopped;
    /** Each start or resume begins a new chain of polls; a poll of an older chain ends it. */
    private volatile long generation;
    private int failureStreak;
    private String lastLoggedFailure;

    public ListenerRunner(ChainListener listener, Duration pollInterval, Duration maxBackoff) {
        this.listener = listener;
        this.pollInterval = pollInterval;
        this.maxBackoff = maxBackoff.compareTo(pollInterval) < 0 ? pollInterval : maxBackoff;
    }

    public ChainListener listener() {
        return listener;
    }

    public synchronized void start() {
        if (scheduler != null) {
            return;
        }
        stopped = false;
        scheduler = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "chain-listener");
            thread.setDaemon(true);
            return thread;
        });
        long chain = ++generation;
        scheduler.execute(() -> pollAndReschedule(chain));
    }

    public synchronized boolean isRunning() {
        return scheduler != null && !stopped;
    }

    /** Stops polling after the poll in progress, if any, has finished its current range. */
    public void pause() {
        paused = true;
        polling.lock();
        polling.unlock();
    }

    /** Resumes polling at once. */
    public synchronized void resume() {
        paused = false;
        if (scheduler != null && !stopped) {
            long chain = ++generation;
            scheduler.execute(() -> pollAndReschedule(chain));
        }
    }

    public boolean isPaused() {
        return paused;
    }

    /** Stops for good: the range in progress is finished (or, after a grace period, interrupted and rolled back). */
    public void stop() {
        ScheduledExecutorService executor;
        synchronized (this) {
            stopped = true;
            executor = scheduler;
        }
        if (executor == null) {
            return;
        }
        executor.shutdown();
        try {
            if (!executor.awaitTermination(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                executor.shutdownNow();
                executor.awaitTermination(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop();
    }

    private void pollAndReschedule(long chain) {
        if (paused || stopped || chain != generation) {
            return;
        }
        Duration next = pollInterval;
        polling.lock();
        try {
            if (paused || stopped) {
                return;
            }
            listener.poll(() -> !paused && !stopped && !Thread.currentThread().isInterrupted());
            if (failureStreak > 0) {
                log.info("chain listener recovered after {} failed polls; checkpoint at block {}", failureStreak,
                        listener.stats().checkpointBlock());
            }
            failureStreak = 0;
            lastLoggedFailure = null;
        } catch (ListenerHaltedException halted) {
            return;
        } catch (RuntimeException e) {
            failureStreak++;
            next = backoff();
            String failure = e.getClass().getSimpleName() + ": " + e.getMessage();
            if (!Objects.equals(failure, lastLoggedFailure)) {
                // node faults are expected and explained by their message; anything else gets its stack trace
                log.warn("chain listener poll failed ({} in a row, checkpoint at block {}, retrying in {} ms): {}",
                        failureStreak, listener.stats().checkpointBlock(), next.toMillis(), failure,
                        e instanceof RpcException ? null : e);
                lastLoggedFailure = failure;
            } else {
                log.debug("chain listener poll failed again ({} in a row): {}", failureStreak, failure);
            }
        } finally {
            polling.unlock();
        }
        schedule(next, chain);
    }

    private Duration backoff() {
        long millis = pollInterval.toMillis() << Math.min(failureStreak, 16);
        return Duration.ofMillis(Math.min(Math.max(millis, 1), maxBackoff.toMillis()));
    }

    private synchronized void schedule(Duration delay, long chain) {
        if (!stopped && !paused && chain == generation && scheduler != null && !scheduler.isShutdown()) {
            scheduler.schedule(() -> pollAndReschedule(chain), delay.toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}
