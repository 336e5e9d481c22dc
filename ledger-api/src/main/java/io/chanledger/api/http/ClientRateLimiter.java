package io.chanledger.api.http;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * A token bucket per client address: {@code capacity} requests at once, then one more every
 * {@code refillInterval}. In memory, so each instance limits on its own; with N instances behind
 * a balancer a client gets up to N times the rate. When more than {@code maxClients} buckets are
 * held, the full ones (clients idle long enough to be back at capacity) are dropped. Every
 * endpoint that limits clients (gas station, feedback, telemetry, probe alerts) has one of its own.
 */
public class ClientRateLimiter {

    private final int capacity;
    private final long refillNanos;
    private final int maxClients;
    private final LongSupplier nanoTime;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    public ClientRateLimiter(int capacity, Duration refillInterval, int maxClients, LongSupplier nanoTime) {
        if (capacity < 1 || refillInterval.isNegative() || refillInterval.isZero() || maxClients < 1) {
            throw new IllegalArgumentException(
                    "a rate limit needs capacity >= 1, a positive refill interval and max clients >= 1");
        }
        this.capacity = capacity;
        this.refillNanos = refillInterval.toNanos();
        this.maxClients = maxClients;
        this.nanoTime = nanoTime;
    }

    /** Takes a token of {@code client}; returns zero when it got one, else how long until the next. */
    public Duration acquire(String client) {
        long now = nanoTime.getAsLong();
        if (buckets.size() >= maxClients && !buckets.containsKey(client)) {
            buckets.values().removeIf(bucket -> bucket.isFull(now));
        }
        return buckets.computeIfAbsent(client, key -> new Bucket(now)).take(now);
    }

    /** How long until {@code client} could take a token: zero when it could now. Takes nothing. */
    public Duration untilNext(String client) {
        Bucket bucket = buckets.get(client);
        return bucket == null ? Duration.ZERO : bucket.untilNext(nanoTime.getAsLong());
    }

    /**
     * Gives back a token {@code client} took for something that did not happen after all, so that
     * only what was done counts against the limit (never above {@code capacity}).
     */
    public void giveBack(String client) {
        Bucket bucket = buckets.get(client);
        if (bucket != null) {
            bucket.giveBack(nanoTime.getAsLong());
        }
    }

    private final class Bucket {
        private long tokens;
        private long refilledAt;

        Bucket(long now) {
            tokens = capacity;
            refilledAt = now;
        }

        synchronized Duration take(long now) {
            Duration wait = untilNext(now);
            if (wait.isZero()) {
                tokens--;
            }
            return wait;
        }

        synchronized Duration untilNext(long now) {
            refill(now);
            return tokens > 0 ? Duration.ZERO : Duration.ofNanos(refillNanos - (now - refilledAt));
        }

        synchronized void giveBack(long now) {
            refill(now);
            if (tokens < capacity) {
                tokens++;
            }
        }

        synchronized boolean isFull(long now) {
            refill(now);
            return tokens >= capacity;
        }

        private void refill(long now) {
            long elapsed = now - refilledAt;
            if (elapsed < refillNanos) {
                return;
            }
            long earned = elapsed / refillNanos;
            tokens = Math.min(capacity, tokens + earned);
            refilledAt = tokens == capacity ? now : refilledAt + earned * refillNanos;
        }
    }
}
