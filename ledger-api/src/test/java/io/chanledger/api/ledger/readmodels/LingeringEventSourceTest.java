package io.chanledger.api.ledger.readmodels;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.axonframework.common.stream.BlockingStream;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.GenericTrackedEventMessage;
import org.axonframework.eventhandling.GlobalSequenceTrackingToken;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.messaging.MetaData;
import org.axonframework.messaging.StreamableMessageSource;
import org.junit.jupiter.api.Test;

/**
 * The read models' batches wait once for the events committed right after their first, until that
 * first event is the linger old; never for a backlog of older events, and not at all when the
 * linger is zero.
 */
class LingeringEventSourceTest {

    private static final Duration LINGER = Duration.ofMillis(10);
    private static final Instant NOW = Instant.parse("2026-11-27T03:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    /** A stream whose events arrive when the processor's timed wait begins, as committed meanwhile. */
    private static final class ArrivingEvents implements BlockingStream<TrackedEventMessage<?>> {
        final Deque<TrackedEventMessage<?>> available = new ArrayDeque<>();
        final List<TrackedEventMessage<?>> arriving = new ArrayList<>();
        long index;

        /** Events stamped now, there at once or arriving during the processor's timed wait. */
        void commit(int count, boolean now) {
            commit(count, now, NOW);
        }

        void commit(int count, boolean now, Instant stamped) {
            for (int i = 0; i < count; i++) {
                TrackedEventMessage<?> event = new GenericTrackedEventMessage<>(new GlobalSequenceTrackingToken(index++),
                        new GenericEventMessage<>("event " + index, "event " + index, MetaData.emptyInstance(), stamped));
                (now ? available : arriving).add(event);
            }
        }

        @Override
        public Optional<TrackedEventMessage<?>> peek() {
            return Optional.ofNullable(available.peek());
        }

        /** Without waiting: what is there now. */
        @Override
        public boolean hasNextAvailable() {
            return !available.isEmpty();
        }

        /** Waiting: what arrives meanwhile. */
        @Override
        public boolean hasNextAvailable(int timeout, TimeUnit unit) {
            available.addAll(arriving);
            arriving.clear();
            return !available.isEmpty();
        }

        @Override
        public TrackedEventMessage<?> nextAvailable() {
            return available.poll();
        }

        @Override
        public void close() {
        }
    }

    private static StreamableMessageSource<TrackedEventMessage<?>> sourceOf(ArrivingEvents stream) {
        return new StreamableMessageSource<>() {
            @Override
            public BlockingStream<TrackedEventMessage<?>> openStream(TrackingToken token) {
                return stream;
            }
        };
    }

    @Test
    void aBatchStartedAfterAWaitLingersOnceAndTakesTheEventsCommittedMeanwhile() throws InterruptedException {
        ArrivingEvents events = new ArrivingEvents();
        List<Duration> pauses = new ArrayList<>();
        BlockingStream<TrackedEventMessage<?>> stream = new LingeringEventSource(sourceOf(events), LINGER,
                pause -> {
                    pauses.add(pause);
                    events.commit(3, true); // committed while the batch lingered
                }, CLOCK).openStream(null);
        events.commit(1, false);

        assertThat(stream.hasNextAvailable(1, TimeUnit.SECONDS)).isTrue();
        int batch = 0;
        while (stream.hasNextAvailable()) {
            stream.nextAvailable();
            batch++;
        }
        assertThat(batch).as("the first event and the three committed during the linger").isEqualTo(4);
        assertThat(pauses).containsExactly(LINGER);
    }

    /**
     * At a lone agent's pace the next request's event is committed while the previous batch is
     * written: the batch on it lingers for what is left of the linger, not starting at once.
     */
    @Test
    void anEventCommittedDuringThePreviousBatchLingersForWhatIsLeftOfTheLinger() throws InterruptedException {
        ArrivingEvents events = new ArrivingEvents();
        List<Duration> pauses = new ArrayList<>();
        BlockingStream<TrackedEventMessage<?>> stream = new LingeringEventSource(sourceOf(events), LINGER,
                pause -> {
                    pauses.add(pause);
                    events.commit(2, true);
                }, CLOCK).openStream(null);
        events.commit(1, true, NOW.minusMillis(4));

        assertThat(stream.hasNextAvailable(1, TimeUnit.SECONDS)).isTrue();
        assertThat(pauses).containsExactly(Duration.ofMillis(6));
        int batch = 0;
        while (stream.hasNextAvailable()) {
            stream.nextAvailable();
            batch++;
        }
        assertThat(batch).isEqualTo(3);
    }

    @Test
    void aBacklogIsReadWithoutLingering() throws InterruptedException {
        ArrivingEvents events = new ArrivingEvents();
        List<Duration> pauses = new ArrayList<>();
        BlockingStream<TrackedEventMessage<?>> stream = new LingeringEventSource(sourceOf(events), LINGER,
                pauses::add, CLOCK).openStream(null);
        events.commit(5, true, NOW.minus(LINGER));
        events.commit(5, true);

        assertThat(stream.hasNextAvailable(1, TimeUnit.SECONDS)).isTrue();
        assertThat(pauses).as("the first waiting event is the linger old").isEmpty();
    }

    @Test
    void anEventStampedAheadOfThisClockWaitsTheLingerAtMost() throws InterruptedException {
        ArrivingEvents events = new ArrivingEvents();
        List<Duration> pauses = new ArrayList<>();
        BlockingStream<TrackedEventMessage<?>> stream = new LingeringEventSource(sourceOf(events), LINGER,
                pauses::add, CLOCK).openStream(null);
        events.commit(1, false, NOW.plusSeconds(30)); // another instance's clock, half a minute ahead

        assertThat(stream.hasNextAvailable(1, TimeUnit.SECONDS)).isTrue();
        assertThat(pauses).containsExactly(LINGER);
    }

    @Test
    void nothingToReadIsNoReasonToLinger() throws InterruptedException {
        List<Duration> pauses = new ArrayList<>();
        BlockingStream<TrackedEventMessage<?>> stream = new LingeringEventSource(sourceOf(new ArrivingEvents()),
                LINGER, pauses::add, CLOCK).openStream(null);

        assertThat(stream.hasNextAvailable(1, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(pauses).isEmpty();
    }

    @Test
    void aZeroLingerHandsOutTheStoresOwnStream() {
        ArrivingEvents events = new ArrivingEvents();
        assertThat(new LingeringEventSource(sourceOf(events), Duration.ZERO).openStream(null)).isSameAs(events);
    }
}
