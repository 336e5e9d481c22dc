package io.chanledger.api.marketplace.directory;

import io.chanledger.projections.marketplace.MarketplaceCatalog;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Reports agents send about providers (feedback, telemetry), recorded at once and published in
 * the directory at most once per {@code interval}: when something was recorded since the last
 * time, the rows past the window are dropped ({@link #prune}) and the catalog is rebuilt with
 * the rest on every instance. A failed publication is tried again at the next interval.
 */
abstract class PublishedReports implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PublishedReports.class);

    private final String name;
    private final Duration interval;
    private final MarketplaceCatalog catalog;
    private final AtomicBoolean unpublished = new AtomicBoolean();
    private ScheduledExecutorService publisher;

    PublishedReports(String name, Duration interval, MarketplaceCatalog catalog) {
        this.name = name;
        this.interval = interval;
        this.catalog = catalog;
    }

    /** Drops what has left the window and marks the store changed, before the catalog is rebuilt. */
    abstract void prune();

    /** Something was recorded: publish it at the next interval. */
    final void recorded() {
        unpublished.set(true);
    }

    private void publish() {
        if (!unpublished.getAndSet(false)) {
            return;
        }
        try {
            prune();
            catalog.requestRefresh();
        } catch (RuntimeException e) {
            unpublished.set(true);
            log.warn("{} could not be published; trying again in {}: {}", name, interval, e.toString());
        }
    }

    @Override
    public final synchronized void start() {
        publisher = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, name + "-publisher");
            thread.setDaemon(true);
            return thread;
        });
        long every = interval.toMillis();
        publisher.scheduleWithFixedDelay(this::publish, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public final synchronized void stop() {
        if (publisher != null) {
            publisher.shutdownNow();
            publisher = null;
        }
    }

    @Override
    public final synchronized boolean isRunning() {
        return publisher != null;
    }
}
