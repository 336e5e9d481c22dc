package io.chanledger.api.eventstore;

/**
 * The names of the service's own threads. The benches read each thread's CPU from {@code /proc} by
 * its name, and their profile splitter gives JFR's samples to thread groups by it, so the names are
 * defined here once rather than where each thread is started and again where it is measured.
 */
public final class ServiceThreads {

    /** The group commit's workers, numbered from 0 after this. */
    public static final String COMMIT_WORKER_PREFIX = "voucher-commit-";

    /** The one thread that reads the event store for the processors that keep up. */
    public static final String EVENT_STORE_READER = "event-store-reader";

    /** The one thread that writes the aggregates' snapshots. */
    public static final String SNAPSHOTTER = "snapshotter";

    private ServiceThreads() {
    }
}
