package io.chanledger.api.eventstore;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.TrackingEventStream;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;

/**
 * Axon's embedded event store, whose processors follow the store through an {@link EventTail}
 * (one reader for all of them, and the newest events in a ring the collector can free) instead of
 * Axon's own cache, and whose reader is woken once per read models' linger for the payment path's
 * commits, not after each of them.
 *
 * <p>Axon wakes the reader right after every commit. A lone agent's paid request commits twice
 * (its hold and its charge), so the reader queried the store twice per request, and each query
 * handed an event or two to the channel and earnings read models, which then waited anyway: their
 * batches start once the first event is {@code chan.read-models.batch-linger} old. Those queries
 * and their database sessions ran on the cores the next request needed: with no wake-up after
 * commits at all, payment added 0.1–0.4 ms less to a lone request (BENCHMARKS.md, "The paid request": one query per batch, and a reader that lingers).
 *
 * <p>Here a commit of the payment path (a unit of work marked {@link #markPaymentCommit}) wakes the
 * reader one linger later, unless a wake-up is already due, which then reads its events too.
 * The read models see them when their batch would start anyway: a batch's first event is that
 * old once it is read. Every other commit (a chain event, the directory's, the gas station's)
 * wakes the reader at once, as Axon does, since processors that read them without lingering (and
 * read-your-writes waits on them) would otherwise wait the linger. With no linger, every commit
 * wakes the reader at once.
 */
public final class LingeringReaderEventStore extends EmbeddedEventStore {

    private static final String PAYMENT_COMMIT = LingeringReaderEventStore.class.getName() + ".paymentCommit";

    private final EventTail tail;
    private final long lingerNanos;
    private final ScheduledExecutorService wakeUps;
    /** A wake-up is scheduled and has not started: a commit seeing it needs none of its own. */
    private final AtomicBoolean wakeUpDue = new AtomicBoolean();

    /**
     * {@code cachedEvents}: the newest events kept for the processors; {@code fetchDelay}: how often
     * the reader reads with no commit of this process to wake it (for other instances' events).
     */
    LingeringReaderEventStore(Builder builder, int cachedEvents, Duration fetchDelay, Duration linger) {
        super(builder);
        this.tail = new EventTail(storageEngine(), cachedEvents, fetchDelay);
        this.lingerNanos = linger.toNanos();
        this.wakeUps = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("event-reader-wake-up").daemon().factory());
    }

    /** Marks {@code unitOfWork}'s commit as one of the payment path, whose reader wake-up lingers. */
    public static void markPaymentCommit(UnitOfWork<?> unitOfWork) {
        unitOfWork.root().resources().put(PAYMENT_COMMIT, Boolean.TRUE);
    }

    /** The store's events after {@code trackingToken}, as {@link EventTail} streams them. */
    @Override
    public TrackingEventStream openStream(TrackingToken trackingToken) {
        return tail.open(trackingToken);
    }

    /** The most events kept in memory for the processors. */
    int cachedEvents() {
        return tail.capacity();
    }

    @Override
    protected void afterCommit(List<? extends EventMessage<?>> events) {
        tail.committed(events);
        if (lingerNanos == 0 || !isPaymentCommit()) {
            tail.wake();
            return;
        }
        if (wakeUpDue.compareAndSet(false, true)) {
            wakeUps.schedule(() -> {
                // cleared before the reader reads: a commit after this schedules a wake-up of its own
                wakeUpDue.set(false);
                tail.wake();
            }, lingerNanos, TimeUnit.NANOSECONDS);
        }
    }

    private static boolean isPaymentCommit() {
        return CurrentUnitOfWork.isStarted() && CurrentUnitOfWork.get().root().resources().containsKey(PAYMENT_COMMIT);
    }

    @Override
    public void shutDown() {
        wakeUps.shutdownNow();
        tail.close();
        super.shutDown();
    }
}
