package io.chanledger.projections.rebuild;

import io.chanledger.domain.channel.ChannelEvent;
import io.chanledger.storage.EventTimestamps;
import io.chanledger.projections.channel.ChannelBalance;
import io.chanledger.projections.channel.ChannelBalanceFold;
import io.chanledger.projections.channel.ChannelBalanceProjection;
import io.chanledger.projections.channel.ChannelBalanceRepository;
import io.chanledger.projections.readmodel.CopyRows;
import io.chanledger.projections.readmodel.RowBatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
public class BulkRebuild {

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
    private final EventTable table;
    private final RebuildSettings settings;
    private final JdbcTemplate jdbc;
    private final boolean postgres;
    /** Reads the channel events' payloads; null where they must be read through the storage engine. */
    private final ChannelEventDecoder decoder;

    public BulkRebuild(EventStorageEngine storage, EventTable table, ChannelBalanceProjection projection,
                       ChannelBalanceRepository repository, PlatformTransactionManager transactions,
                       DataSource dataSource, @Qualifier("eventSerializer") Serializer serializer,
                       ObjectProvider<EventUpcaster> upcasters, RebuildSettings settings) {
        this.storage = storage;
        this.table = table;
        this.projection = projection;
        this.repository = repository;
        this.transactions = new TransactionTemplate(transactions);
        this.dataSource = dataSource;
        this.settings = settings;
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
    public TrackingToken rebuild(AtomicLong applied) {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Pipe<Handoff> events = new Pipe<>(4, failure);
        Pipe<List<RowBatch.Change<ChannelBalance>>> rows = new Pipe<>(2, failure);
        AtomicReference<TrackingToken> last = new AtomicReference<>();
        CpuTimes cpu = new CpuTimes();
        long started = System.nanoTime();

        boolean tableHoldsRows = repository.count() > 0;
        ChannelBalanceFold fold = new ChannelBalanceFold(projection, repository, tableHoldsRows,
                settings.rowsInMemory(), settings.rowsPerWrite(), rows::put);
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
        log.info("Rebuilt the channel read models up to event {} in {} ms, {} rows written; {}; the fold waited {} ms"
                        + " for events and {} ms for the writer, the reader {} ms for the fold", applied.get(),
                (System.nanoTime() - started) / 1_000_000, written.get(), cpu, events.waitedEmptyMillis(),
                rows.waitedFullMillis(), events.waitedFullMillis());
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
        Optional<EventTable.Range> range = table.range();
        if (range.isEmpty()) {
            return null;
        }
        long low = range.get().low();
        long head = range.get().high();
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

    private Slice readSlice(long after, long upTo, long head, CpuTimes cpu) throws SQLException {
        long cpuStart = cpu.now();
        List<Handoff> handoffs = new ArrayList<>();
        List<Long> missing = new ArrayList<>();
        var slice = new Object() {
            List<ChannelBalanceFold.Event> read = new ArrayList<>(EVENTS_PER_HANDOFF);
            long previous = after;
        };
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            EventTimestamps timestamps = new EventTimestamps();
            table.slice(connection, postgres, after, upTo, FETCH_SIZE, rows -> {
                long index = rows.getLong(1);
                for (long gap = Math.max(slice.previous + 1, head - MAX_GAP_OFFSET); gap < index; gap++) {
                    missing.add(gap);
                }
                slice.previous = index;
                String type = rows.getString(5);
                if (decoder.decodes(type)) {
                    slice.read.add(event(rows, type, timestamps));
                }
                if (slice.read.size() == EVENTS_PER_HANDOFF) {
                    handoffs.add(new Handoff(slice.read, index));
                    slice.read = new ArrayList<>(EVENTS_PER_HANDOFF);
                }
            });
            // the slice's position is its upper bound: what it did not see there is a gap
            handoffs.add(new Handoff(slice.read, upTo));
            connection.rollback();
        }
        for (long gap = Math.max(slice.previous + 1, head - MAX_GAP_OFFSET); gap <= upTo && gap < head; gap++) {
            missing.add(gap);
        }
        cpu.addReading(cpu.now() - cpuStart);
        return new Slice(handoffs, missing);
    }

    /** The channel event of the current row, whose payload type is {@code type}. */
    private ChannelBalanceFold.Event event(ResultSet rows, String type, EventTimestamps timestamps)
            throws SQLException {
        // the driver's bytes of a text column are its UTF-8: no String in between
        byte[] payload = postgres ? rows.getBytes(6) : rows.getString(6).getBytes(StandardCharsets.UTF_8);
        String channelId = rows.getString(2);
        try {
            return new ChannelBalanceFold.Event(channelId, rows.getLong(3), timestamps.parse(rows.getString(4)),
                    decoder.decode(type, payload, channelId));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
}
