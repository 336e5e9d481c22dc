package io.chanledger.projections.marketplace;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The provider directory held in memory, rebuilt when it changes rather than per request. A change
 * made in this instance asks for a rebuild at once (coalesced over {@code debounce}, so a burst of
 * events gives one rebuild); a change made by another instance is noticed by polling the change
 * counter every {@code pollInterval}. Listeners get each new snapshot on the rebuild thread, and
 * precompute their responses there.
 *
 * <p>A snapshot becomes {@link #current} only once every listener has it. The ways a client reads
 * its own write ({@link #awaitSnapshot}, {@link #refreshIfChanged}) look at {@code current} and
 * then read what a listener precomputed; were it current before the listeners had it, such a read
 * could find the new version current and still be answered from the snapshot before.
 */
public class MarketplaceCatalog implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MarketplaceCatalog.class);

    private final CatalogReader reader;
    private final Clock clock;
    private final Duration debounce;
    private final Duration pollInterval;
    private final List<Consumer<CatalogSnapshot>> listeners = new CopyOnWriteArrayList<>();
    private final AtomicBoolean refreshScheduled = new AtomicBoolean();
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "marketplace-catalog");
        thread.setDaemon(true);
        return thread;
    });
    private volatile CatalogSnapshot current;
    private volatile boolean failing;

    public MarketplaceCatalog(CatalogReader reader, Clock clock, Duration debounce, Duration pollInterval) {
        this.reader = reader;
        this.clock = clock;
        this.debounce = debounce;
        this.pollInterval = pollInterval;
        this.current = CatalogSnapshot.empty(clock.instant());
    }

    /** Builds the first snapshot now and starts watching the change counter. */
    public void start() {
        refreshNow();
        long every = Math.max(1, pollInterval.toMillis());
        executor.scheduleWithFixedDelay(this::refreshIfChanged, every, every, TimeUnit.MILLISECONDS);
    }

    public CatalogSnapshot current() {
        return current;
    }

    /** Called with every new snapshot, and at once with the current one. */
    public synchronized void addListener(Consumer<CatalogSnapshot> listener) {
        listeners.add(listener);
        listener.accept(current);
    }

    /** Something changed in this instance: rebuild soon, once for everything that changes meanwhile. */
    public void requestRefresh() {
        if (refreshScheduled.compareAndSet(false, true)) {
            executor.schedule(() -> {
                refreshScheduled.set(false);
                refreshNow();
            }, debounce.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Waits (at most {@code timeout}) until a snapshot satisfies {@code condition}, so that a
     * client which changed something reads its own change afterwards. False when time ran out:
     * the change is then still on its way, not lost.
     */
    public boolean awaitSnapshot(Predicate<CatalogSnapshot> condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.test(current)) {
            if (System.nanoTime() >= deadline) {
                return false;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Rebuilds now (on the caller's thread) and returns the new snapshot. */
    public synchronized CatalogSnapshot refreshNow() {
        try {
            CatalogSnapshot snapshot = reader.readSnapshot(clock.instant());
            for (Consumer<CatalogSnapshot> listener : listeners) {
                listener.accept(snapshot);
            }
            current = snapshot;
            if (failing) {
                log.info("marketplace directory readable again (change {})", snapshot.version());
                failing = false;
            }
        } catch (RuntimeException e) {
            if (!failing) {
                log.warn("marketplace directory could not be rebuilt; serving change {} until it can: {}",
                        current.version(), e.toString());
                failing = true;
            }
        }
        return current;
    }

    /**
     * Rebuilds now when the change counter moved since the current snapshot, so that a change
     * committed before this call is in the snapshot after it, and in what the listeners made of it
     * (without waiting for the debounce or the next poll). A rebuild under way when the counter is
     * read is waited for, then this rebuilds once more: that one may have read the directory before
     * the change.
     */
    public void refreshIfChanged() {
        try {
            if (reader.version() != current.version()) {
                refreshNow();
            }
        } catch (RuntimeException e) {
            if (!failing) {
                log.warn("marketplace change counter unreadable: {}", e.toString());
                failing = true;
            }
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
