package io.chanledger.api.eventstore;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.axonframework.common.Registration;
import org.axonframework.common.caching.Cache;
import org.axonframework.eventsourcing.AggregateCacheEntry;

/**
 * A bounded, least-recently-used aggregate cache holding its entries strongly. Axon's
 * WeakReferenceCache loses every entry at the next garbage collection, which on the voucher path
 * means re-reading a channel's events for almost every voucher; a bound keeps memory predictable
 * instead. Entry listeners are not needed by the aggregate repositories and are not supported.
 */
final class BoundedAggregateCache implements Cache {

    private final Map<Object, Object> entries;

    BoundedAggregateCache(int maxEntries) {
        this.entries = new LinkedHashMap<>(Math.min(maxEntries, 1 << 16), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Object, Object> eldest) {
                return size() > maxEntries;
            }
        };
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized <K, V> V get(K key) {
        return (V) entries.get(key);
    }

    @Override
    public synchronized void put(Object key, Object value) {
        entries.put(key, value);
    }

    @Override
    public synchronized boolean putIfAbsent(Object key, Object value) {
        return entries.putIfAbsent(key, value) == null;
    }

    @Override
    public synchronized boolean remove(Object key) {
        return entries.remove(key) != null;
    }

    @Override
    public synchronized void removeAll() {
        entries.clear();
    }

    @Override
    public synchronized boolean containsKey(Object key) {
        return entries.containsKey(key);
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized <V> void computeIfPresent(Object key, UnaryOperator<V> update) {
        entries.computeIfPresent(key, (k, v) -> update.apply((V) v));
    }

    @Override
    public Registration registerCacheEntryListener(EntryListener cacheEntryListener) {
        throw new UnsupportedOperationException("entry listeners are not supported by this cache");
    }

    /**
     * The version (last sequence number) of the aggregate cached under {@code key}, or null when
     * none is. An entry made in this process hands back its live aggregate without using the
     * arguments of {@code recreateAggregate}; every entry here is made in this process.
     */
    synchronized Long cachedVersion(Object key) {
        return entries.get(key) instanceof AggregateCacheEntry<?> entry
                ? entry.recreateAggregate(null, null, null, null).version()
                : null;
    }

    synchronized int size() {
        return entries.size();
    }
}
