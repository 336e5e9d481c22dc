package io.chanledger.api.marketplace.directory;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * At most one check of each provider at a time, whoever asks. A round's check is skipped when
 * another is under way. A caller that must see the provider as it is now (an alert's) needs a
 * check that began after it asked: one already under way may have probed before what the caller
 * reports, so the caller waits for it to end and then checks; one that began after the caller
 * asked is joined instead of repeated.
 *
 * <p>Checks are numbered as they begin, and "began after the caller asked" is decided by number,
 * not by whether a check is still in the table: a check that has just ended may still be there for
 * an instant, and taking its outcome for a fresh one answered an alert with what the provider did
 * before it went down.
 */
final class ChecksUnderWay<K, R> {

    private record Check<R>(long number, CompletableFuture<R> outcome) {
    }

    private final AtomicLong numbers = new AtomicLong();
    private final Map<K, Check<R>> underWay = new ConcurrentHashMap<>();

    /** Runs {@code check} on the caller's thread unless a check of {@code key} is under way; false when one was. */
    boolean runUnlessUnderWay(K key, Supplier<R> check) {
        Check<R> mine = new Check<>(numbers.incrementAndGet(), new CompletableFuture<>());
        if (underWay.putIfAbsent(key, mine) != null) {
            return false;
        }
        run(key, mine, check);
        return true;
    }

    /**
     * The outcome of a check of {@code key} that began after this call: the caller's own, run on its
     * thread, or another caller's that began meanwhile. A check's failure is thrown to all who wait for it.
     */
    R runFresh(K key, Supplier<R> check) {
        long asked = numbers.get();
        while (true) {
            Check<R> mine = new Check<>(numbers.incrementAndGet(), new CompletableFuture<>());
            Check<R> current = underWay.putIfAbsent(key, mine);
            if (current == null) {
                return run(key, mine, check);
            }
            if (current.number() > asked) {
                return outcome(current);
            }
            current.outcome().exceptionally(failure -> null).join();
            // its owner takes it out too; whichever comes first
            underWay.remove(key, current);
        }
    }

    private R run(K key, Check<R> mine, Supplier<R> check) {
        try {
            R result = check.get();
            mine.outcome().complete(result);
            return result;
        } catch (RuntimeException e) {
            mine.outcome().completeExceptionally(e);
            throw e;
        } finally {
            underWay.remove(key, mine);
        }
    }

    private static <R> R outcome(Check<R> check) {
        try {
            return check.outcome().join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }
}
