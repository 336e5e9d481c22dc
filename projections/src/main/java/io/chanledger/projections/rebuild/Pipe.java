package io.chanledger.projections.rebuild;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** A bounded queue between two threads of the rebuild; each side gives up once any thread has failed. */
final class Pipe<T> {

    private final BlockingQueue<T> queue;
    private final AtomicReference<Throwable> failure;
    /** Nanoseconds spent waiting: a full pipe holds up its producer, an empty one its consumer. */
    private final AtomicLong waitedFull = new AtomicLong();
    private final AtomicLong waitedEmpty = new AtomicLong();

    Pipe(int capacity, AtomicReference<Throwable> failure) {
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.failure = failure;
    }

    void put(T item) {
        long start = System.nanoTime();
        try {
            while (!queue.offer(item, 100, TimeUnit.MILLISECONDS)) {
                stopIfFailed();
            }
            waitedFull.addAndGet(System.nanoTime() - start);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    T take() {
        long start = System.nanoTime();
        try {
            T item;
            while ((item = queue.poll(100, TimeUnit.MILLISECONDS)) == null) {
                stopIfFailed();
            }
            waitedEmpty.addAndGet(System.nanoTime() - start);
            return item;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    long waitedFullMillis() {
        return waitedFull.get() / 1_000_000;
    }

    long waitedEmptyMillis() {
        return waitedEmpty.get() / 1_000_000;
    }

    private void stopIfFailed() {
        if (failure.get() != null) {
            throw new IllegalStateException("another thread of the rebuild failed", failure.get());
        }
    }
}
