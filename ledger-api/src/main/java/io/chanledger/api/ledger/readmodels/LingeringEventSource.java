package io.chanledger.api.ledger.readmodels;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.axonframework.common.stream.BlockingStream;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.messaging.StreamableMessageSource;

/**
 * The event store as the read models' tracking processors read it: a batch starts once the first
 * event waiting for it is a few milliseconds old (the linger, counted from the event's timestamp),
 * and takes every event committed meanwhile. Without it, each paid request's two events were
 * projected in batches of their own, one transaction each, on the same two cores the next request
 * needed; with it, a lone agent's requests of the last few milliseconds share one.
 *
 * <p>The linger is counted from the event, not from the moment the processor asks: at a lone
 * agent's pace the next request's event is usually committed while the previous batch is still
 * being written, and a batch that started at once on it held one request (counted on PostgreSQL:
 * 0.47 batches per paid request and processor at 391 paid requests a second). Events older than
 * the linger (a backlog: a replay's catch-up, a restart, a busy ledger) are read at once, so a
 * backlog is read at full speed. An event stamped ahead of this clock (another instance's) waits
 * the linger at most. The processor asks with a timeout only when it starts a batch and fills the
 * batch without waiting, so the linger is paid once per batch, not per event. Reads that need the
 * read model current wait for it (see {@code chan.read-models.fresh-read-timeout}), at most this
 * much longer.
 */
public final class LingeringEventSource implements StreamableMessageSource<TrackedEventMessage<?>> {

    /** How the stream waits: {@link Thread#sleep(Duration)}, or a test's recorder. */
    interface Pause {
        void pause(Duration duration) throws InterruptedException;
    }

    private final StreamableMessageSource<TrackedEventMessage<?>> events;
    private final Duration linger;
    private final Pause pause;
    private final Clock clock;

    public LingeringEventSource(StreamableMessageSource<TrackedEventMessage<?>> events, Duration linger) {
        this(events, linger, Thread::sleep, Clock.systemUTC());
    }

    LingeringEventSource(StreamableMessageSource<TrackedEventMessage<?>> events, Duration linger, Pause pause,
                         Clock clock) {
        this.events = events;
        this.linger = linger;
        this.pause = pause;
        this.clock = clock;
    }

    @Override
    public BlockingStream<TrackedEventMessage<?>> openStream(TrackingToken trackingToken) {
        BlockingStream<TrackedEventMessage<?>> stream = events.openStream(trackingToken);
        return linger.isZero() ? stream : new Lingering(stream, linger, pause, clock);
    }

    @Override
    public TrackingToken createTailToken() {
        return events.createTailToken();
    }

    @Override
    public TrackingToken createHeadToken() {
        return events.createHeadToken();
    }

    @Override
    public TrackingToken createTokenAt(Instant dateTime) {
        return events.createTokenAt(dateTime);
    }

    @Override
    public TrackingToken createTokenSince(Duration duration) {
        return events.createTokenSince(duration);
    }

    private record Lingering(BlockingStream<TrackedEventMessage<?>> stream, Duration linger, Pause pause,
                             Clock clock) implements BlockingStream<TrackedEventMessage<?>> {

        @Override
        public boolean hasNextAvailable(int timeout, TimeUnit unit) throws InterruptedException {
            if (!stream.hasNextAvailable(timeout, unit)) {
                return false;
            }
            Optional<TrackedEventMessage<?>> first = stream.peek();
            if (first.isPresent()) {
                Duration rest = linger.minus(Duration.between(first.get().getTimestamp(), clock.instant()));
                if (rest.isPositive()) {
                    pause.pause(rest.compareTo(linger) > 0 ? linger : rest);
                }
            }
            return true;
        }

        @Override
        public boolean hasNextAvailable() {
            return stream.hasNextAvailable();
        }

        @Override
        public Optional<TrackedEventMessage<?>> peek() {
            return stream.peek();
        }

        @Override
        public TrackedEventMessage<?> nextAvailable() throws InterruptedException {
            return stream.nextAvailable();
        }

        @Override
        public void close() {
            stream.close();
        }

        @Override
        public void skipMessagesWithPayloadTypeOf(TrackedEventMessage<?> ignoredMessage) {
            stream.skipMessagesWithPayloadTypeOf(ignoredMessage);
        }

        @Override
        public boolean setOnAvailableCallback(Runnable callback) {
            return stream.setOnAvailableCallback(callback);
        }
    }
}
