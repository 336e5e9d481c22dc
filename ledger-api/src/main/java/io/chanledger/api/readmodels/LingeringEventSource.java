package io.chanledger.api.readmodels;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.axonframework.common.stream.BlockingStream;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.messaging.StreamableMessageSource;

/**
 * The event store as the channel read models' tracking processor reads it: once an event is
 * available after a wait, the stream lingers a few milliseconds before it says so, and the
 * processor's batch takes every event committed meanwhile. Without it, each paid request's two
 * events were projected in batches of their own, one transaction each, on the same two cores the
 * next request needed; with it, a lone agent's requests of the last few milliseconds share one.
 *
 * <p>The processor asks with a timeout only when it starts a batch and then fills the batch
 * without waiting, so a backlog (a replay, a busy ledger) is read at full speed: the linger is
 * paid once per batch, not per event. Reads that need the read model current wait for it
 * (see {@code chan.read-models.fresh-read-timeout}), at most this much longer.
 */
public final class LingeringEventSource implements StreamableMessageSource<TrackedEventMessage<?>> {

    /** How the stream waits: {@link Thread#sleep(Duration)}, or a test's recorder. */
    interface Pause {
        void pause(Duration duration) throws InterruptedException;
    }

    private final StreamableMessageSource<TrackedEventMessage<?>> events;
    private final Duration linger;
    private final Pause pause;

    public LingeringEventSource(StreamableMessageSource<TrackedEventMessage<?>> events, Duration linger) {
        this(events, linger, Thread::sleep);
    }

    LingeringEventSource(StreamableMessageSource<TrackedEventMessage<?>> events, Duration linger, Pause pause) {
        this.events = events;
        this.linger = linger;
        this.pause = pause;
    }

    @Override
    public BlockingStream<TrackedEventMessage<?>> openStream(TrackingToken trackingToken) {
        BlockingStream<TrackedEventMessage<?>> stream = events.openStream(trackingToken);
        return linger.isZero() ? stream : new Lingering(stream, linger, pause);
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

    private record Lingering(BlockingStream<TrackedEventMessage<?>> stream, Duration linger, Pause pause)
            implements BlockingStream<TrackedEventMessage<?>> {

        @Override
        public boolean hasNextAvailable(int timeout, TimeUnit unit) throws InterruptedException {
            if (stream.hasNextAvailable()) {
                return true; // a backlog: no reason to wait
            }
            if (!stream.hasNextAvailable(timeout, unit)) {
                return false;
            }
            pause.pause(linger);
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
