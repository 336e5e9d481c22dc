package io.chanledger.chain.rpc;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * Bounded retries with exponential backoff and jitter: attempt n (n ≥ 1) failing waits
 * {@code initialBackoff × multiplier^(n-1)}, capped at {@code maxBackoff}, reduced by a random
 * share of up to {@code jitter} so that many clients do not retry in step.
 */
public record RetryPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff, double multiplier,
                          double jitter) {

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
        if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("backoffs must satisfy 0 <= initial <= max");
        }
        if (multiplier < 1 || jitter < 0 || jitter > 1) {
            throw new IllegalArgumentException("multiplier must be >= 1 and jitter within [0, 1]");
        }
    }

    public static RetryPolicy defaults() {
        return new RetryPolicy(5, Duration.ofMillis(200), Duration.ofSeconds(5), 2.0, 0.5);
    }

    /** No retries at all: one attempt. */
    public static RetryPolicy none() {
        return new RetryPolicy(1, Duration.ZERO, Duration.ZERO, 1.0, 0.0);
    }

    /** The pause after {@code failedAttempts} failures in a row. */
    public Duration backoff(int failedAttempts, RandomGenerator random) {
        double base = initialBackoff.toMillis() * Math.pow(multiplier, Math.max(0, failedAttempts - 1));
        double capped = Math.min(base, maxBackoff.toMillis());
        double jittered = capped * (1 - jitter * random.nextDouble());
        return Duration.ofMillis(Math.round(jittered));
    }
}
