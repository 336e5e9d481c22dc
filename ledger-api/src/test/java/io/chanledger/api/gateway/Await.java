package io.chanledger.api.gateway;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polls a condition until it holds or the deadline passes; tests never sleep a fixed time. */
public final class Await {

    private Await() {
    }

    public static void until(Duration timeout, String what, BooleanSupplier condition) {
        until(timeout, what, condition, () -> { });
    }

    /** Polls, running {@code between} after every miss (e.g. mining a block). */
    static void until(Duration timeout, String what, BooleanSupplier condition, Runnable between) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            between.run();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
        }
    }

    static <T> T value(Duration timeout, String what, Supplier<T> read) {
        Object[] found = new Object[1];
        until(timeout, what, () -> (found[0] = read.get()) != null);
        @SuppressWarnings("unchecked")
        T value = (T) found[0];
        return value;
    }
}
