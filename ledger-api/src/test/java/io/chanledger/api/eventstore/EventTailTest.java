package io.chanledger.api.eventstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.domain.channel.ChannelExpired;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.GenericTrackedDomainEventMessage;
import org.axonframework.eventhandling.GenericTrackedEventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingEventStream;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.axonframework.messaging.GenericMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link EventTail}: streams that follow the store read every event once and in order, from one
 * reader's queries while they keep up and from their own when they start or fall behind; the reader
 * reads on its own what no commit of this process woke it for; and an event every open stream has
 * taken, one that left the ring, or a committed payload never read back, is held by nothing the tail
 * keeps.
 */
class EventTailTest {

    private final CountingStorage storage = new CountingStorage();
    private final List<TrackingEventStream> streams = new ArrayList<>();
    private EventTail tail;

    @AfterEach
    void close() {
        streams.forEach(TrackingEventStream::close);
        tail.close();
    }

    @Test
    void twoStreamsReadEveryEventInOrderFromTheOneReadersQueries() throws Exception {
        tail = new EventTail(storage, 2_000, Duration.ofMinutes(1));
        TrackingEventStream first = open(null);
        TrackingEventStream second = open(null);
        // each reads the empty store on its own once, and then follows the ring
        assertThat(first.hasNextAvailable(200, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(second.hasNextAvailable(200, TimeUnit.MILLISECONDS)).isFalse();
        int ownReadsBefore = storage.ownReads.get();

        for (int batch = 0; batch < 10; batch++) {
            List<Object> committed = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                committed.add("event " + (batch * 10 + i));
                storage.append(committed.getLast());
            }
            tail.wake();

            assertThat(read(first, 10)).containsExactlyElementsOf(committed);
            assertThat(read(second, 10)).containsExactlyElementsOf(committed);
        }
        // every event came from the reader's queries, none from the streams' own
        assertThat(storage.ownReads.get() - ownReadsBefore).isZero();
        assertThat(storage.readerReads.get()).isPositive();
    }

    @Test
    void aStreamFromAnEarlierTokenReadsTheStoreOnItsOwnThenFollowsTheRing() throws Exception {
        tail = new EventTail(storage, 2_000, Duration.ofMinutes(1));
        List<Object> committed = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            committed.add("event " + i);
            storage.append(committed.getLast());
        }
        TrackingEventStream first = open(null);
        List<TrackedEventMessage<?>> firstRead = readEvents(first, 50);
        assertThat(first.hasNextAvailable(200, TimeUnit.MILLISECONDS)).as("all there is, read").isFalse();
        TrackingToken afterTwenty = firstRead.get(19).trackingToken();

        TrackingEventStream later = open(afterTwenty);
        assertThat(read(later, 30)).containsExactlyElementsOf(committed.subList(20, 50));
        assertThat(later.hasNextAvailable(200, TimeUnit.MILLISECONDS)).isFalse();
        int ownReadsBefore = storage.ownReads.get();

        commitAndRead("event 50", first, later);
        assertThat(storage.ownReads.get() - ownReadsBefore).as("the reader's query alone").isZero();
    }

    @Test
    void eventsNoCommitOfThisProcessWokeTheReaderForAreReadWithinTheFetchDelay() throws Exception {
        tail = new EventTail(storage, 2_000, Duration.ofMillis(100));
        TrackingEventStream stream = openFollowingTheRing();

        storage.append("committed by another instance");

        assertThat(read(stream, 1)).containsExactly("committed by another instance");
    }

    @Test
    void anEventAStreamThatFellBehindStillNeedsLeavesTheRingOnceItsCapacityOfNewerOnesCame() throws Exception {
        tail = new EventTail(storage, 4, Duration.ofMinutes(1));
        TrackingEventStream stream = openFollowingTheRing();
        // follows the ring from its first event, and takes none
        TrackingEventStream behind = openFollowingTheRing();
        List<WeakReference<Object>> read = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            storage.append("event " + i);
            tail.wake();
            assertThat(stream.hasNextAvailable(10, TimeUnit.SECONDS)).isTrue();
            read.add(new WeakReference<>(stream.nextAvailable()));
        }

        collectUntilCleared(read.get(95));
        assertThat(read.subList(0, 96)).allSatisfy(event -> assertThat(event.get()).isNull());
        assertThat(read.subList(96, 100)).as("the ring's four").allSatisfy(event -> assertThat(event.get()).isNotNull());
        // the stream behind reads the store on its own, and misses nothing
        int ownReadsBefore = storage.ownReads.get();
        assertThat(read(behind, 100)).containsExactlyElementsOf(
                IntStream.range(0, 100).mapToObj(i -> "event " + i).toList());
        assertThat(storage.ownReads.get()).isGreaterThan(ownReadsBefore);
    }

    @Test
    void anEventEveryOpenStreamHasTakenIsHeldByNothingTheTailKeeps() throws Exception {
        tail = new EventTail(storage, 1_000, Duration.ofMinutes(1));
        TrackingEventStream fast = openFollowingTheRing();
        TrackingEventStream slow = openFollowingTheRing();
        TrackingEventStream closed = openFollowingTheRing();
        // a closed stream holds nothing back, though it took nothing
        closed.close();
        int ownReadsBefore = storage.ownReads.get();
        List<WeakReference<TrackedEventMessage<?>>> events = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            storage.append("event " + i);
        }
        tail.wake();
        readEvents(fast, 10).forEach(event -> events.add(new WeakReference<>(event)));
        readEvents(slow, 5);

        // the ring lets go when it adds an event
        commitAndRead("event 10", fast);
        collectUntilCleared(events.get(4));
        assertThat(events.subList(0, 5)).as("taken by both").allSatisfy(event -> assertThat(event.get()).isNull());
        assertThat(events.subList(5, 10)).as("not yet taken by the slow one")
                .allSatisfy(event -> assertThat(event.get()).isNotNull());

        assertThat(read(slow, 6)).containsExactly("event 5", "event 6", "event 7", "event 8", "event 9", "event 10");
        commitAndRead("event 11", fast, slow);
        collectUntilCleared(events.get(9));
        assertThat(events).allSatisfy(event -> assertThat(event.get()).isNull());
        assertThat(storage.ownReads.get() - ownReadsBefore).as("every event from the reader's queries").isZero();
    }

    @Test
    void whileAStreamReadsTheStoreOnItsOwnTheRingKeepsWhatTheOthersTook() throws Exception {
        tail = new EventTail(storage, 1_000, Duration.ofMinutes(1));
        TrackingEventStream follower = openFollowingTheRing();
        List<TrackedEventMessage<?>> first = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            storage.append("event " + i);
            tail.wake();
            first.addAll(readEvents(follower, 1));
        }

        // from the tenth, on its own: it may find its place among the events the follower takes meanwhile
        TrackingEventStream late = open(first.get(9).trackingToken());
        List<WeakReference<TrackedEventMessage<?>>> takenMeanwhile = new ArrayList<>();
        for (int i = 20; i < 30; i++) {
            storage.append("event " + i);
            tail.wake();
            readEvents(follower, 1).forEach(event -> takenMeanwhile.add(new WeakReference<>(event)));
        }
        collectUntilCleared(takenMeanwhile.getFirst());
        assertThat(takenMeanwhile).as("kept for the stream reading on its own")
                .allSatisfy(event -> assertThat(event.get()).isNotNull());

        assertThat(read(late, 20)).containsExactlyElementsOf(
                IntStream.range(10, 30).mapToObj(i -> "event " + i).toList());
        assertThat(late.hasNextAvailable(200, TimeUnit.MILLISECONDS)).isFalse();
        int ownReadsBefore = storage.ownReads.get();
        commitAndRead("event 30", follower, late);
        assertThat(storage.ownReads.get() - ownReadsBefore).as("both follow the ring").isZero();
        collectUntilCleared(takenMeanwhile.getLast());
        assertThat(takenMeanwhile).as("let go once both follow the ring")
                .allSatisfy(event -> assertThat(event.get()).isNull());
    }

    @Test
    void aCommittedPayloadTheReaderNeverReadsBackIsDroppedOnceTheRingsCapacityOfNewerOnesCame() throws Exception {
        tail = new EventTail(storage, 4, Duration.ofMinutes(1));
        List<WeakReference<Object>> committed = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            // committed here, and read back by no reader (as when the reader read it before the commit's hook ran)
            ChannelExpired payload = new ChannelExpired("0x" + "ab".repeat(32), 1_000 + i, 2_000, 3_000);
            committed.add(new WeakReference<>(payload));
            tail.committed(List.of(new GenericDomainEventMessage<>("Channel", payload.channelId(), i, payload)));
        }

        collectUntilCleared(committed.get(5));
        assertThat(committed.subList(0, 6)).allSatisfy(payload -> assertThat(payload.get()).isNull());
        assertThat(committed.subList(6, 10)).as("the newest four").allSatisfy(
                payload -> assertThat(payload.get()).isNotNull());
    }

    @Test
    void aCommittedEventInTheRingHoldsNothingOfWhatTheReaderReadBack() throws Exception {
        tail = new EventTail(storage, 100, Duration.ofMinutes(1));
        TrackingEventStream stream = openFollowingTheRing();
        String channel = "0x" + "cd".repeat(32);
        List<ChannelExpired> payloads = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ChannelExpired payload = new ChannelExpired(channel, 1_000 + i, 2_000, 3_000);
            GenericDomainEventMessage<ChannelExpired> event = new GenericDomainEventMessage<>("Channel", channel, i,
                    payload);
            storage.appendEvents(event);
            // the last one as another instance's: this process did not commit it
            if (i < 9) {
                tail.committed(List.of(event));
                payloads.add(payload);
            }
        }
        tail.wake();

        List<TrackedEventMessage<?>> streamed = readEvents(stream, 10);

        for (int i = 0; i < 9; i++) {
            TrackedEventMessage<?> event = streamed.get(i);
            CountingStorage.ReadBack asRead = storage.readBack.get(i);
            assertThat(event.getPayload()).as("event %d: the committed payload", i).isSameAs(payloads.get(i));
            assertThat(event.trackingToken()).isEqualTo(asRead.token());
            assertThat(event.getTimestamp()).isEqualTo(asRead.timestamp());
            assertThat(event.getIdentifier()).isEqualTo(asRead.identifier());
            assertThat(((DomainEventMessage<?>) event).getSequenceNumber()).isEqualTo(i);
            assertThat(((DomainEventMessage<?>) event).getAggregateIdentifier()).isEqualTo(channel);
        }
        collectUntilCleared(storage.readBack.get(8).message());
        // the ring still holds all ten, and of what was read back only the event it did not commit
        assertThat(storage.readBack).hasSize(10);
        assertThat(storage.readBack.subList(0, 9)).as("read back, committed here")
                .allSatisfy(read -> assertThat(read.message().get()).isNull());
        assertThat(storage.readBack.get(9).message().get()).as("read back, another instance's")
                .isSameAs(streamed.get(9));
    }

    @Test
    void streamsReadingOnTheirOwnThreadsAtTheirOwnPaceEachReadEveryEventOnceAndInOrder() throws Exception {
        // a ring smaller than the slow stream's lag at times: it lets go of what both took, and the
        // slow one falls out of the ring, reads the store on its own and comes back, while the
        // reader adds events
        tail = new EventTail(storage, 64, Duration.ofMillis(20));
        TrackingEventStream fast = openFollowingTheRing();
        TrackingEventStream slow = openFollowingTheRing();
        int events = 5_000;
        CompletableFuture<List<Object>> fastRead = CompletableFuture.supplyAsync(() -> readAll(fast, events, 0));
        CompletableFuture<List<Object>> slowRead = CompletableFuture.supplyAsync(() -> readAll(slow, events, 5));
        for (int i = 0; i < events; i++) {
            storage.append("event " + i);
            if (i % 10 == 9) {
                tail.wake();
            }
        }
        tail.wake();

        List<Object> expected = IntStream.range(0, events).mapToObj(i -> (Object) ("event " + i)).toList();
        assertThat(fastRead.get(60, TimeUnit.SECONDS)).containsExactlyElementsOf(expected);
        assertThat(slowRead.get(60, TimeUnit.SECONDS)).containsExactlyElementsOf(expected);
        assertThat(storage.ownReads.get()).as("the slow stream read the store on its own at times").isGreaterThan(2);
    }

    @Test
    void aStreamWaitingForAnEventIsReleasedWhenTheTailCloses() throws Exception {
        tail = new EventTail(storage, 2_000, Duration.ofMinutes(1));
        TrackingEventStream stream = openFollowingTheRing();
        CompletableFuture<Throwable> waiting = new CompletableFuture<>();
        Thread reading = Thread.ofPlatform().start(() -> {
            try {
                stream.nextAvailable();
                waiting.complete(null);
            } catch (Throwable e) {
                waiting.complete(e);
            }
        });
        Thread.sleep(200);
        assertThat(waiting).as("still waiting for an event").isNotDone();

        tail.close();

        // a processor shutting down gets an answer, not a thread waiting for good
        assertThat(waiting.get(10, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class);
        reading.join(5_000);
    }

    /** Collects until {@code reference} is cleared, or a second has passed (then the caller's checks fail). */
    private static void collectUntilCleared(WeakReference<?> reference) throws InterruptedException {
        for (int attempt = 0; attempt < 20 && reference.get() != null; attempt++) {
            System.gc();
            Thread.sleep(50);
        }
    }

    /** Commits {@code event}, wakes the reader, and checks that each of {@code streams} reads it next. */
    private void commitAndRead(String event, TrackingEventStream... streams) throws InterruptedException {
        storage.append(event);
        tail.wake();
        for (TrackingEventStream stream : streams) {
            assertThat(read(stream, 1)).containsExactly(event);
        }
    }

    /** A stream from the store's first event that has read all there is: it follows the ring from there. */
    private TrackingEventStream openFollowingTheRing() throws InterruptedException {
        TrackingEventStream stream = open(null);
        assertThat(stream.hasNextAvailable(200, TimeUnit.MILLISECONDS)).isFalse();
        return stream;
    }

    private TrackingEventStream open(TrackingToken token) {
        TrackingEventStream stream = tail.open(token);
        streams.add(stream);
        return stream;
    }

    private static List<Object> read(TrackingEventStream stream, int count) throws InterruptedException {
        return readEvents(stream, count).stream().map(event -> (Object) event.getPayload()).toList();
    }

    /** The next {@code count} payloads of {@code stream}, pausing {@code pauseMillis} after every 100th. */
    private static List<Object> readAll(TrackingEventStream stream, int count, long pauseMillis) {
        List<Object> payloads = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                if (!stream.hasNextAvailable(10, TimeUnit.SECONDS)) {
                    break;
                }
                payloads.add(stream.nextAvailable().getPayload());
                if (pauseMillis > 0 && i % 100 == 99) {
                    Thread.sleep(pauseMillis);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return payloads;
    }

    /** The next {@code count} events, each waited for at most 10 s. */
    private static List<TrackedEventMessage<?>> readEvents(TrackingEventStream stream, int count)
            throws InterruptedException {
        List<TrackedEventMessage<?>> events = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            assertThat(stream.hasNextAvailable(10, TimeUnit.SECONDS)).as("event %d read", i + 1).isTrue();
            events.add(stream.nextAvailable());
        }
        return events;
    }

    /**
     * An in-memory store that counts the queries of its events, the reader's apart from the
     * streams' own (made by the threads that read the streams), and hands out a new message for
     * every event read, as a database's store does (the in-memory one hands out the messages it keeps),
     * a domain event's as a domain event. What it gave the reader is remembered, the message weakly.
     */
    private static final class CountingStorage extends InMemoryEventStorageEngine {

        /** A message the reader was given, and what a test compares the ring's event with. */
        private record ReadBack(WeakReference<TrackedEventMessage<?>> message, TrackingToken token, String identifier,
                                Instant timestamp) {
        }

        private final AtomicInteger readerReads = new AtomicInteger();
        private final AtomicInteger ownReads = new AtomicInteger();
        private final List<ReadBack> readBack = new CopyOnWriteArrayList<>();

        void append(Object payload) {
            appendEvents(GenericEventMessage.asEventMessage(payload));
        }

        @Override
        public Stream<? extends TrackedEventMessage<?>> readEvents(TrackingToken trackingToken, boolean mayBlock) {
            boolean reader = Thread.currentThread().getName().equals(ServiceThreads.EVENT_STORE_READER);
            (reader ? readerReads : ownReads).incrementAndGet();
            return super.readEvents(trackingToken, mayBlock).map(event -> {
                TrackedEventMessage<?> read = event instanceof DomainEventMessage<?> stored
                        ? new GenericTrackedDomainEventMessage<>(event.trackingToken(), stored.getType(),
                        stored.getAggregateIdentifier(), stored.getSequenceNumber(), new GenericMessage<>(
                        stored.getIdentifier(), stored.getPayload(), stored.getMetaData()), stored::getTimestamp)
                        : new GenericTrackedEventMessage<>(event.trackingToken(), new GenericEventMessage<>(
                        event.getIdentifier(), event.getPayload(), event.getMetaData(), event.getTimestamp()));
                if (reader) {
                    readBack.add(new ReadBack(new WeakReference<>(read), read.trackingToken(), read.getIdentifier(),
                            read.getTimestamp()));
                }
                return read;
            });
        }
    }
}
