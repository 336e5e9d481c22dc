package io.chanledger.api.eventstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.axonframework.common.stream.BlockingStream;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When the event store's shared reader reads ({@link LingeringReaderEventStore}): at once after an
 * ordinary commit, one linger after a commit of the payment path. The reader here looks on its own
 * only once a minute, so what it reads within the test it read because a commit woke it.
 */
class LingeringReaderEventStoreTest {

    private static final Duration READER_LOOKS_EVERY = Duration.ofMinutes(1);

    private LingeringReaderEventStore store;
    private BlockingStream<TrackedEventMessage<?>> stream;

    @AfterEach
    void close() {
        stream.close();
        store.shutDown();
    }

    @Test
    void aPaymentCommitDoesNotWakeTheReaderBeforeTheLingerAndAnOrdinaryCommitDoesAtOnce() throws Exception {
        start(Duration.ofMinutes(10));

        commit("payment", true);
        assertThat(stream.hasNextAvailable(1, TimeUnit.SECONDS)).as("read before the linger").isFalse();

        commit("ordinary", false);
        assertThat(read(2)).containsExactly("payment", "ordinary");
    }

    @Test
    void aPaymentCommitIsReadOneLingerLater() throws Exception {
        start(Duration.ofMillis(200));

        commit("first", true);
        commit("second", true); // within the linger: read with the first, by the wake-up already due

        assertThat(read(2)).containsExactly("first", "second");
    }

    @Test
    void withNoLingerAPaymentCommitWakesTheReaderAtOnce() throws Exception {
        start(Duration.ZERO);

        commit("payment", true);

        assertThat(read(1)).containsExactly("payment");
    }

    @Test
    void aStreamThatFallsFurtherBehindThanTheCacheStillReadsEveryEventInOrder() throws Exception {
        // the cache the service keeps is small (chan.read-models.cached-events): a processor that
        // falls behind it reads the store on its own, and must lose nothing on the way out and back
        store = new LingeringReaderEventStore(EmbeddedEventStore.builder()
                .storageEngine(new InMemoryEventStorageEngine()), 5, READER_LOOKS_EVERY, Duration.ZERO);
        stream = store.openStream(null);
        commit("event 0", false);
        assertThat(read(1)).containsExactly("event 0");

        List<Object> committed = new ArrayList<>();
        for (int i = 1; i <= 50; i++) {
            committed.add("event " + i);
            commit("event " + i, false);
        }
        assertThat(read(50)).containsExactlyElementsOf(committed);

        commit("event 51", false);
        assertThat(read(1)).as("back on the shared reader's tail").containsExactly("event 51");
    }

    private void start(Duration linger) throws InterruptedException {
        store = new LingeringReaderEventStore(EmbeddedEventStore.builder()
                .storageEngine(new InMemoryEventStorageEngine()), 2_000, READER_LOOKS_EVERY, linger);
        stream = store.openStream(null);
        // the reader's first look, at the empty store, done before anything is committed
        assertThat(stream.hasNextAvailable(500, TimeUnit.MILLISECONDS)).isFalse();
    }

    private void commit(String payload, boolean payment) {
        DefaultUnitOfWork<?> unitOfWork = DefaultUnitOfWork.startAndGet(null);
        if (payment) {
            LingeringReaderEventStore.markPaymentCommit(unitOfWork);
        }
        store.publish(GenericEventMessage.asEventMessage(payload));
        unitOfWork.commit();
    }

    /** The next {@code count} events' payloads, each waited for at most 10 s. */
    private List<Object> read(int count) throws InterruptedException {
        List<Object> payloads = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            assertThat(stream.hasNextAvailable(10, TimeUnit.SECONDS)).as("event %d read", i + 1).isTrue();
            payloads.add(stream.nextAvailable().getPayload());
        }
        return payloads;
    }
}
