package io.chanledger.api.chain;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Waits for a condition with a deadline instead of sleeping and hoping. */
final class Await {

    static final Duration DEADLINE = Duration.ofSeconds(30);

    private Await() {
    }

    static void until(String what, BooleanSupplier condition) {
        until(what, () -> condition.getAsBoolean() ? Boolean.TRUE : null, value -> true);
    }

    /** Polls {@code read} until its value satisfies {@code done}; returns that value. */
    static <T> T until(String what, Supplier<T> read, Predicate<T> done) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        T last = null;
        while (System.nanoTime() < deadline) {
            last = read.get();
            if (last != null && done.test(last)) {
                return last;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting until " + what, e);
            }
        }
        throw new AssertionError("not within " + DEADLINE + ": " + what + " (last seen: " + last + ")");
    }
}
