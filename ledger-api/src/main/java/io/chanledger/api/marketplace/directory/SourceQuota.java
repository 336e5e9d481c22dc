package io.chanledger.api.marketplace.directory;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Bounds what one source moves of a provider's reports: each source counts at most
 * {@code perSource} reports per provider per {@code periodNanos} (fixed periods, each provider's
 * own, its counts forgotten when one ends). A report over its source's share is accepted and
 * dropped.
 *
 * <p>Each provider has a table of its own, of at most {@code maxSources} sources per period: past
 * that, reports on that provider from new sources are dropped until its period ends. So memory is
 * bounded per provider (and providers are those of the directory), and a flood of reports on one
 * provider, from however many sources, fills that provider's table and no other's. Held in memory,
 * per instance; nothing here is stored or logged.
 */
final class SourceQuota {

    private final int perSource;
    private final long periodNanos;
    private final int maxSources;
    private final LongSupplier nanoTime;
    private final Map<String, Table> tables = new ConcurrentHashMap<>();

    SourceQuota(int perSource, long periodNanos, int maxSources, LongSupplier nanoTime) {
        this.perSource = perSource;
        this.periodNanos = periodNanos;
        this.maxSources = maxSources;
        this.nanoTime = nanoTime;
    }

    /** Whether a report on {@code providerId} from {@code source} counts. */
    boolean admit(String providerId, String source) {
        long now = nanoTime.getAsLong();
        return tables.computeIfAbsent(providerId, id -> new Table(now)).admit(source, now);
    }

    private final class Table {
        private final Map<String, Integer> counts = new HashMap<>();
        private long periodStart;

        Table(long now) {
            periodStart = now;
        }

        synchronized boolean admit(String source, long now) {
            if (now - periodStart >= periodNanos) {
                counts.clear();
                periodStart = now;
            }
            Integer count = counts.get(source);
            if (count == null ? counts.size() >= maxSources : count >= perSource) {
                return false;
            }
            counts.put(source, count == null ? 1 : count + 1);
            return true;
        }
    }
}
