package io.chanledger.api.readmodels;

import io.chanledger.projections.channel.ChannelBalance;
import io.chanledger.projections.channel.ChannelBalanceFold;
import io.chanledger.projections.channel.ChannelBalanceProjection;
import io.chanledger.projections.channel.ChannelBalanceRepository;
import io.chanledger.domain.channel.ChannelEvent;
import io.chanledger.projections.readmodel.CopyRows;
import io.chanledger.projections.readmodel.RowBatch;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.json.JacksonSerializer;
import org.axonframework.serialization.upcasting.event.EventUpcaster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Rebuilds the channel read models from the event store without a processor's per-event
 * machinery, in a pipeline. The readers stream the event rows in global order, two slices at a
 * time, and read the channel events' payloads as the event serializer's own Jackson mapper reads
 * them ({@link ChannelEventDecoder}; when upcasters are configured, or the serializer is not
 * Jackson, one reader reads through the storage engine instead, upcast as a processor sees them).
 * The caller's thread folds them into the rows in memory ({@link ChannelBalanceFold}, the projection's own logic), and the writer writes the rows
 * the fold hands on, with what follows from them in the provider accounts, a transaction per
 * hand-off. Whatever is written is consistent: a rebuild that stops half-way is finished by the
 * processor, restarted from the reset token, whose sequence checks skip what is already applied.
 */
@Component
class BulkRebuild {

    private static final Logger log = LoggerFactory.getLogger(BulkRebuild.class);
    /** Events handed from the reader to the fold at a time; the fold looks up their rows in one go. */
    private static final int EVENTS_PER_HANDOFF = 4_096;
    /** As the storage engine: only gaps this close to the newest event can still fill. */
    private static final int MAX_GAP_OFFSET = 10_000;
    private static final int FETCH_SIZE = 10_000;
    /** Global indexes per slice, threads reading slices, and slices read ahead of the fold at most. */
    private static final int SLICE = 20_000;
    private static final int SLICE_READERS = 2;
    private static final int SLICES_AHEAD = 2;

    private final EventStorageEngine storage;
    private final ChannelBalanceProjection projection;
    private final ChannelBalanceRepository repository;
    private final TransactionTemplate transactions;
    private final DataSource dataSource;
    private final ReadModelProperties properties;
    private final JdbcTemplate jdbc;
    private final boolean postgres;
    /** Reads the channel events' payloads; null where they must be read through the storage engine. */
    private final ChannelEventDecoder decoder;

    BulkRebuild(EventStorageEngine storage, ChannelBalanceProjection projection, ChannelBalanceRepository repository,
                PlatformTransactionManager transactions, DataSource dataSource,
                @Qualifier("eventSerializer") Serializer serializer, ObjectProvider<EventUpcaster> upcasters,
                ReadModelProperties properties) {
        this.storage = storage;
        this.projection = projection;
        this.repository = repository;
        this.transactions = new TransactionTemplate(transactions);
        this.dataSource = dataSource;
        this.properties = properties;
        this.jdbc = new JdbcTemplate(dataSource);
        this.postgres = CopyRows.postgres(jdbc);
        this.decoder = serializer instanceof JacksonSerializer jackson && upcasters.stream().findAny().isEmpty()
                ? new ChannelEventDecoder(jackson.getObjectMapper()) : null;
    }

    /** Channel events read together, and the global index of the last stored event read with them. */
    private record Handoff(List<ChannelBalanceFold.Event> events, long position) {
    }

    private static final Handoff END_OF_EVENTS = new Handoff(List.of(), -1);
    private static final List<RowBatch.Change<ChannelBalance>> END_OF_ROWS = Collections.unmodifiableList(new ArrayList<>());

    /**
     * Applies every stored event; {@code applied} follows the global index up to which every
     * event is folded. Returns the token of the last event read, null when the store is empty.
     * Call it with the processor stopped and its tokens reset.
     */
    TrackingToken rebuild(AtomicLong applied) {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Pipe<Handoff> events = new Pipe<>(4, failure);
        Pipe<List<RowBatch.Change<ChannelBalance>>> rows = new Pipe<>(2, failure);
        AtomicReference<TrackingToken> last = new AtomicReference<>();
        CpuTimes cpu = new CpuTimes();
        long started = System.nanoTime();

        boolean tableHoldsRows = repository.count() > 0;
        ChannelBalanceFold fold = new ChannelBalanceFold(projection, repository, tableHoldsRows,
                properties.rebuildRowsInMemory(), properties.rebuildRowsPerWrite(), rows::put);
        AtomicLong written = new AtomicLong();
        Thread reader = Thread.ofPlatform().name("read-model-rebuild-reader").start(() -> cpu.reading(() -> {
            last.set(decoder == null ? readThroughEngine(events) : readSlices(events, cpu));
            events.put(END_OF_EVENTS);
        }, failure));
        Thread writer = Thread.ofPlatform().name("read-model-rebuild-writer").start(() -> cpu.writing(() -> {
            for (var changes = rows.take(); changes != END_OF_ROWS; changes = rows.take()) {
                var committed = changes;
                transactions.executeWithoutResult(status -> {
                    if (postgres) {
                        // durable all the same: the hand-over to the processor commits synchronously after these
                        jdbc.execute("SET LOCAL synchronous_commit TO OFF");
                    }
                    projection.write(committed);
                });
                fold.written(committed);
                written.addAndGet(committed.size());
            }
        }, failure));
        try {
            long foldStart = cpu.now();
            for (Handoff handoff = events.take(); handoff != END_OF_EVENTS; handoff = events.take()) {
                fold.apply(handoff.events());
                applied.set(handoff.position());
            }
            fold.finish();
            cpu.folded(foldStart);
            rows.put(END_OF_ROWS);
            reader.join();
            writer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure.compareAndSet(null, e);
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        }
        if (failure.get() != null) {
            reader.interrupt();
            writer.interrupt();
            // the processor restarts after this: no write of the rebuild may come after it
            joinQuietly(reader);
            joinQuietly(writer);
            Throwable cause = failure.get();
            throw new IllegalStateException("rebuilding the read models failed: " + cause, cause);
        }
        log.info("Rebuilt the channel read models up to event {} in {} ms, {} rows written; CPU time: reading {} ms,"
                        + " folding {} ms, writing {} ms; the fold waited {} ms for events and {} ms for the writer,"
                        + " the reader {} ms for the fold", applied.get(), (System.nanoTime() - started) / 1_000_000,
                written.get(), cpu.reading.get() / 1_000_000, cpu.folding.get() / 1_000_000,
                cpu.writing.get() / 1_000_000, events.waitedEmpty.get() / 1_000_000, rows.waitedFull.get() / 1_000_000,
                events.waitedFull.get() / 1_000_000);
        return last.get();
    }

    private static void joinQuietly(Thread thread) {
        try {
            thread.join(Duration.ofSeconds(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Every row stored when the rebuild started, in global order: slices of global indexes are
     * read by two threads at once, each on a connection of its own, so that while one waits for
     * the database the other deserializes, and their events are handed on slice by slice in order.
     * Returns the token of the newest row, with the gaps a processor still has to watch.
     */
    private TrackingToken readSlices(Pipe<Handoff> events, CpuTimes cpu) throws Exception {
        Map<String, Object> range = jdbc.queryForMap("SELECT MIN(global_index) AS low, MAX(global_index) AS high"
                + " FROM domain_event_entry");
        if (range.get("high") == null) {
            return null;
        }
        long low = ((Number) range.get("low")).longValue();
        long head = ((Number) range.get("high")).longValue();
        TreeSet<Long> gaps = new TreeSet<>();
        ExecutorService slicers = Executors.newFixedThreadPool(SLICE_READERS,
                Thread.ofPlatform().name("read-model-rebuild-slice-", 0).factory());
        try {
            Deque<Future<Slice>> ahead = new ArrayDeque<>();
            long next = low - 1;
            while (next < head || !ahead.isEmpty()) {
                while (next < head && ahead.size() < SLICES_AHEAD) {
                    long after = next;
                    long upTo = Math.min(head, next + SLICE);
                    ahead.add(slicers.submit(() -> readSlice(after, upTo, head, cpu)));
                    next = upTo;
                }
                Slice slice = ahead.poll().get();
                gaps.addAll(slice.missing());
                for (Handoff handoff : slice.handoffs()) {
                    events.put(handoff);
                }
            }
        } finally {
            slicers.shutdownNow();
        }
        return GapAwareTrackingToken.newInstance(head, gaps);
    }

    /** The events of one slice of global indexes, and the indexes missing near the head (gaps). */
    private record Slice(List<Handoff> handoffs, List<Long> missing) {
    }

    private Slice readSlice(long after, long upTo, long head, CpuTimes cpu) throws SQLException, IOException {
        long cpuStart = cpu.now();
        List<Handoff> handoffs = new ArrayList<>();
        List<Long> missing = new ArrayList<>();
        long previous = after;
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            if (postgres) {
                streamInIndexOrder(connection);
            }
            try (PreparedStatement query = connection.prepareStatement("SELECT global_index, aggregate_identifier,"
                    + " sequence_number, time_stamp, payload_type, payload FROM domain_event_entry"
                    + " WHERE global_index > ? AND global_index <= ? ORDER BY global_index")) {
                query.setLong(1, after);
                query.setLong(2, upTo);
                query.setFetchSize(FETCH_SIZE);
                try (ResultSet rows = query.executeQuery()) {
                    List<ChannelBalanceFold.Event> read = new ArrayList<>(EVENTS_PER_HANDOFF);
                    EventTimestamps timestamps = new EventTimestamps();
                    while (rows.next()) {
                        long index = rows.getLong(1);
                        for (long gap = Math.max(previous + 1, head - MAX_GAP_OFFSET); gap < index; gap++) {
                            missing.add(gap);
                        }
                        previous = index;
                        String type = rows.getString(5);
                        if (decoder.decodes(type)) {
                            read.add(event(rows, type, timestamps));
                        }
                        if (read.size() == EVENTS_PER_HANDOFF) {
                            handoffs.add(new Handoff(read, index));
                            read = new ArrayList<>(EVENTS_PER_HANDOFF);
                        }
                    }
                    // the slice's position is its upper bound: what it did not see there is a gap
                    handoffs.add(new Handoff(read, upTo));
                }
            }
            connection.rollback();
        }
        for (long gap = Math.max(previous + 1, head - MAX_GAP_OFFSET); gap <= upTo && gap < head; gap++) {
            missing.add(gap);
        }
        cpu.addReading(cpu.now() - cpuStart);
        return new Slice(handoffs, missing);
    }

    /** The channel event of the current row, whose payload type is {@code type}. */
    private ChannelBalanceFold.Event event(ResultSet rows, String type, EventTimestamps timestamps)
            throws SQLException, IOException {
        // the driver's bytes of a text column are its UTF-8: no String in between
        byte[] payload = postgres ? rows.getBytes(6) : rows.getString(6).getBytes(StandardCharsets.UTF_8);
        String channelId = rows.getString(2);
        return new ChannelBalanceFold.Event(channelId, rows.getLong(3), timestamps.parse(rows.getString(4)),
                decoder.decode(type, payload, channelId));
    }

    /**
     * Has the slice read along the primary key's index, which yields its rows already in global
     * order. Left to itself, the planner may choose (and without statistics does) a bitmap scan
     * and a sort: the same rows at about twice the server's CPU time, and none until all are sorted.
     */
    private static void streamInIndexOrder(Connection connection) throws SQLException {
        try (Statement settings = connection.createStatement()) {
            settings.execute("SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off;"
                    + " SET LOCAL enable_sort = off");
        }
    }

    /** The storage engine's stream, upcast and deserialized as a processor sees it. */
    private TrackingToken readThroughEngine(Pipe<Handoff> events) throws InterruptedException {
        TrackingToken last = null;
        try (Stream<? extends TrackedEventMessage<?>> stream = storage.readEvents(null, false)) {
            Iterator<? extends TrackedEventMessage<?>> iterator = stream.iterator();
            List<ChannelBalanceFold.Event> read = new ArrayList<>(EVENTS_PER_HANDOFF);
            while (iterator.hasNext()) {
                TrackedEventMessage<?> message = iterator.next();
                last = message.trackingToken();
                if (message instanceof DomainEventMessage<?> event && event.getPayload() instanceof ChannelEvent payload) {
                    read.add(new ChannelBalanceFold.Event(event.getAggregateIdentifier(), event.getSequenceNumber(),
                            event.getTimestamp(), payload));
                }
                if (read.size() == EVENTS_PER_HANDOFF) {
                    events.put(new Handoff(read, last.position().orElse(0)));
                    read = new ArrayList<>(EVENTS_PER_HANDOFF);
                }
            }
            events.put(new Handoff(read, last == null ? 0 : last.position().orElse(0)));
        }
        return last;
    }

    /** A bounded queue between two threads of the rebuild; each side gives up once any thread has failed. */
    private static final class Pipe<T> {

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

        private void stopIfFailed() {
            if (failure.get() != null) {
                throw new IllegalStateException("another thread of the rebuild failed", failure.get());
            }
        }
    }

    /** CPU time each thread of the rebuild used, for the log line that tells where the time went. */
    private static final class CpuTimes {

        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        private final AtomicLong reading = new AtomicLong();
        private final AtomicLong folding = new AtomicLong();
        private final AtomicLong writing = new AtomicLong();

        interface Work {
            void run() throws Exception;
        }

        void reading(Work work, AtomicReference<Throwable> failure) {
            timed(work, reading, failure);
        }

        void writing(Work work, AtomicReference<Throwable> failure) {
            timed(work, writing, failure);
        }

        long now() {
            return threads.getCurrentThreadCpuTime();
        }

        void addReading(long nanos) {
            reading.addAndGet(nanos);
        }

        void folded(long since) {
            folding.set(now() - since);
        }

        private void timed(Work work, AtomicLong total, AtomicReference<Throwable> failure) {
            long start = now();
            try {
                work.run();
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            } finally {
                total.addAndGet(now() - start);
            }
        }
    }
}
