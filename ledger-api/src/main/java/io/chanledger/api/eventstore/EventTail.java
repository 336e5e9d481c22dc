package io.chanledger.api.eventstore;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingEventStream;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's newest events, read once by one reader thread for every stream that follows the
 * store (the tracking processors), and kept in a ring of a fixed number of slots.
 *
 * <p>It does what Axon's {@code EmbeddedEventStore} does with its own cache, in a shape the
 * collector can free. Axon keeps its newest events as a linked list whose dropped nodes still point
 * to the next one. Once a node has been moved to the old generation and died there, it keeps the
 * node after it alive through every young collection (the young collector takes any pointer out of
 * the old generation as live), that node the one after it, and so on until a full collection: every
 * event then outlives the young generation, is copied to the old one and dies there. Under the
 * gateway bench's load the service moved some 680 MB to the old generation in a run of four
 * minutes, twice what it moves with the ring, and collected in full six times past start-up,
 * 200–270 ms each (BENCHMARKS.md, "The paid request": the event ring). Here an event leaves the ring once every
 * open stream has taken it, or when its slot is written over by the capacity's newest events, and
 * then nothing the ring holds points to it.
 *
 * <p>A stream ({@link #open}) follows the ring while its position is in it: the token before one of
 * the ring's events, or the token of the newest one. A stream that is not (it starts from an older
 * token, or fell further behind than the ring holds) reads the store with queries of its own until
 * it has read all there is, and then follows the ring from where it stands if the ring holds that
 * place; the first stream to get there sets where the reader starts. The reader reads when woken
 * ({@link #wake}, after a commit) and every {@code fetchDelay} on its own, for the events other
 * instances commit. The channel events this process committed reach the ring as its commit
 * recorded them ({@link #committed}, {@link CommittedEvents}), not as the reader read them back.
 */
final class EventTail implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EventTail.class);

    /** An event and the reader's token before it: a stream whose last token that is reads this event next. */
    private record Slot(TrackingToken previousToken, TrackedEventMessage<?> event) {
    }

    private final EventStorageEngine storage;
    private final Slot[] ring;
    private final long fetchDelayNanos;
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when events were added to the ring, and when the tail closes. */
    private final Condition added = lock.newCondition();
    /** Signalled when the reader should read. */
    private final Condition wakeUp = lock.newCondition();
    /** Sequence number of the newest event read (slot {@code newest % ring.length}); -1 before the first. */
    private long newest = -1;
    /**
     * Sequence number of the oldest event the ring may still hold: every event before it was taken
     * by every open stream, and its slot let go. Guarded by the lock.
     */
    private long firstHeld;
    /** The streams open on this tail, until closed. Guarded by the lock. */
    private final List<Follower> followers = new ArrayList<>();
    /** The token of the newest event read, where the reader reads on from; meaningful once positioned. */
    private TrackingToken readerToken;
    private boolean positioned;
    private boolean wakeRequested;
    private boolean closed;
    private Thread reader;
    /** The channel events this process committed, until the reader reads them back; as many as the ring holds. */
    private final CommittedEvents committedEvents;

    EventTail(EventStorageEngine storage, int capacity, Duration fetchDelay) {
        if (capacity < 1) {
            throw new IllegalArgumentException("the ring holds at least one event, not " + capacity);
        }
        this.storage = storage;
        this.ring = new Slot[capacity];
        this.fetchDelayNanos = fetchDelay.toNanos();
        this.committedEvents = new CommittedEvents(capacity);
    }

    /** A stream of the store's events after {@code token} (from the first when null). */
    TrackingEventStream open(TrackingToken token) {
        Follower follower = new Follower(token);
        lock.lock();
        try {
            followers.add(follower);
            if (positioned) {
                follower.joinRing();
            }
        } finally {
            lock.unlock();
        }
        return follower;
    }

    /** Keeps the channel events among {@code events}, which this process has just committed. */
    void committed(List<? extends EventMessage<?>> events) {
        committedEvents.add(events);
    }

    /** Has the reader read as soon as it can (after a commit): at once, or right after the read it is doing. */
    void wake() {
        lock.lock();
        try {
            wakeRequested = true;
            wakeUp.signal();
        } finally {
            lock.unlock();
        }
    }

    /** The slots of the ring, the most events it keeps. */
    int capacity() {
        return ring.length;
    }

    @Override
    public void close() {
        Thread running;
        lock.lock();
        try {
            closed = true;
            wakeUp.signalAll();
            added.signalAll();
            running = reader;
        } finally {
            lock.unlock();
        }
        if (running != null) {
            running.interrupt();
        }
    }

    /** The oldest event the ring holds: the newest {@code capacity} at most, less those every stream has taken. */
    private long oldest() {
        return Math.max(firstHeld, newest - ring.length + 1);
    }

    private Slot slot(long sequence) {
        return ring[(int) (sequence % ring.length)];
    }

    /** Starts the reader from {@code token}, with the lock held. */
    private void position(TrackingToken token) {
        readerToken = token;
        positioned = true;
        wakeRequested = true;
        reader = Thread.ofPlatform().daemon().name(ServiceThreads.EVENT_STORE_READER).start(this::readUntilClosed);
    }

    private void readUntilClosed() {
        while (true) {
            TrackingToken from;
            lock.lock();
            try {
                long waitNanos = fetchDelayNanos;
                while (!wakeRequested && !closed && waitNanos > 0) {
                    waitNanos = wakeUp.awaitNanos(waitNanos);
                }
                if (closed) {
                    return;
                }
                wakeRequested = false;
                from = readerToken;
            } catch (InterruptedException e) {
                return;
            } finally {
                lock.unlock();
            }
            try (Stream<? extends TrackedEventMessage<?>> events = storage.readEvents(from, false)) {
                Iterator<? extends TrackedEventMessage<?>> read = events.iterator();
                while (read.hasNext()) {
                    add(read.next());
                }
            } catch (RuntimeException e) {
                if (isClosed()) {
                    return;
                }
                log.warn("reading the newest events from the event store failed; trying again in {} ms: {}",
                        TimeUnit.NANOSECONDS.toMillis(fetchDelayNanos), e.toString());
            }
        }
    }

    private void add(TrackedEventMessage<?> read) {
        TrackedEventMessage<?> event = committedEvents.asCommitted(read);
        lock.lock();
        try {
            newest++;
            ring[(int) (newest % ring.length)] = new Slot(readerToken, event);
            readerToken = event.trackingToken();
            letGoOfTakenEvents();
            added.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Empties the slots of the events every open stream has taken, with the lock held, so that an
     * event lives about as long as the slowest stream takes to read it (a read model's batch linger,
     * under load) rather than until the ring's capacity of newer ones has come: the ring's events
     * are most of what a young collection copies under load (BENCHMARKS.md, "The paid request": the event ring).
     * Nothing is let go while no stream is open, or while one reads the store on its own: it may
     * find its place in the ring once it has read all there is, or start the reader there.
     */
    private void letGoOfTakenEvents() {
        if (followers.isEmpty()) {
            return;
        }
        long taken = Long.MAX_VALUE;
        for (Follower follower : followers) {
            long next = follower.next;
            if (next < 0) {
                return;
            }
            taken = Math.min(taken, next);
        }
        for (long sequence = oldest(); sequence < taken; sequence++) {
            ring[(int) (sequence % ring.length)] = null;
        }
        firstHeld = Math.max(firstHeld, taken);
    }

    private boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    /** A stream of the store's events: from the ring while its place is there, else with queries of its own. */
    private final class Follower implements TrackingEventStream {

        /** The token of the last event taken. */
        private TrackingToken lastToken;
        /**
         * Sequence number of the next event in the ring while following it; -1 while reading on its
         * own. Set with the lock held, and also counted up without it by the thread that takes the
         * events: the reader, letting go of taken events, sees it no later than it is.
         */
        private volatile long next = -1;
        private Stream<? extends TrackedEventMessage<?>> ownStream;
        private Iterator<? extends TrackedEventMessage<?>> ownEvents;
        /** The next event of its own reading, read and not taken yet. */
        private TrackedEventMessage<?> ownPeeked;
        /** Set by {@link #close}, which may come from another thread than the one reading. */
        private volatile boolean streamClosed;

        Follower(TrackingToken from) {
            this.lastToken = from;
        }

        @Override
        public Optional<TrackedEventMessage<?>> peek() {
            try {
                return Optional.ofNullable(available(0));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }

        @Override
        public boolean hasNextAvailable(int timeout, TimeUnit unit) throws InterruptedException {
            return available(unit.toNanos(timeout)) != null;
        }

        @Override
        public TrackedEventMessage<?> nextAvailable() throws InterruptedException {
            TrackedEventMessage<?> event = available(Long.MAX_VALUE);
            if (event == null) {
                // with no deadline, none comes only once the stream or the tail is closed
                throw new IllegalStateException("the event stream is closed");
            }
            lastToken = event.trackingToken();
            if (next >= 0) {
                next++;
            } else {
                ownPeeked = null;
            }
            return event;
        }

        @Override
        public void close() {
            streamClosed = true;
            lock.lock();
            try {
                followers.remove(this);
            } finally {
                lock.unlock();
            }
            closeOwnStream();
        }

        /** The next event, not taken, waiting at most {@code waitNanos} for one; null when none came. */
        private TrackedEventMessage<?> available(long waitNanos) throws InterruptedException {
            long deadline = waitNanos == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + waitNanos;
            while (!streamClosed) {
                if (next >= 0) {
                    lock.lockInterruptibly();
                    try {
                        if (next < oldest()) {
                            // written over before it was taken: read on from the store on its own
                            log.debug("a stream fell more than {} events behind the store's reader; it reads the "
                                    + "store on its own from {}", ring.length, lastToken);
                            next = -1;
                        } else if (next <= newest) {
                            return slot(next).event();
                        } else {
                            long left = nanosLeft(deadline);
                            if (left <= 0 || closed) {
                                return null;
                            }
                            added.awaitNanos(left);
                            continue;
                        }
                    } finally {
                        lock.unlock();
                    }
                }
                if (ownPeeked != null) {
                    return ownPeeked;
                }
                if (ownEvents == null) {
                    ownStream = storage.readEvents(lastToken, false);
                    ownEvents = ownStream.iterator();
                }
                if (ownEvents.hasNext()) {
                    ownPeeked = ownEvents.next();
                    return ownPeeked;
                }
                closeOwnStream();
                lock.lockInterruptibly();
                try {
                    if (!positioned) {
                        // the first stream to have read all there is: the reader starts where it stands
                        position(lastToken);
                    }
                    if (joinRing()) {
                        log.debug("a stream follows the store's reader from {}", lastToken);
                        continue;
                    }
                    long left = nanosLeft(deadline);
                    if (left <= 0 || closed) {
                        return null;
                    }
                    // the store has more once the ring has: then read it again
                    added.awaitNanos(Math.min(left, fetchDelayNanos));
                } finally {
                    lock.unlock();
                }
            }
            return null;
        }

        /** What is left of the wait until {@code deadline}; with none, one fetch delay at a time. */
        private long nanosLeft(long deadline) {
            return deadline == Long.MAX_VALUE ? fetchDelayNanos : deadline - System.nanoTime();
        }

        /**
         * Follows the ring from the last token if the ring holds that place: the reader's own
         * token, or the token before one of its events. With the lock held.
         */
        private boolean joinRing() {
            if (Objects.equals(lastToken, readerToken)) {
                next = newest + 1;
                return true;
            }
            for (long sequence = oldest(); sequence <= newest; sequence++) {
                if (Objects.equals(slot(sequence).previousToken(), lastToken)) {
                    next = sequence;
                    return true;
                }
            }
            return false;
        }

        private void closeOwnStream() {
            if (ownStream != null) {
                ownStream.close();
            }
            ownStream = null;
            ownEvents = null;
        }
    }
}
