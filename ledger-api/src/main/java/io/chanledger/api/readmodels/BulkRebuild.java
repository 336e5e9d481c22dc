package io.chanledger.api.readmodels;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.chanledger.projections.channel.ChannelBalance;
import io.chanledger.projections.channel.ChannelBalanceProjection;
import io.chanledger.projections.channel.ChannelEvents;
import io.chanledger.projections.readmodel.RowBatch;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.axonframework.common.DateTimeUtils;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.json.JacksonSerializer;
import org.axonframework.serialization.upcasting.event.EventUpcaster;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Rebuilds the channel read models from the event store in large chunks, straight into the
 * projection's own batch logic, without a processor's per-event machinery in between. Events are
 * read as plain rows in global order and their payloads deserialized by the event serializer's
 * own Jackson mapper; when upcasters are configured (or the serializer is not Jackson), they are
 * read through the storage engine instead, upcast as a processor sees them. Two threads take turns:
 * one reads and deserializes the next chunk while the other applies and writes the previous one,
 * so the database and the JVM work at the same time. A chunk is one transaction; the
 * projection's sequence checks make a rebuild that stops half-way harmless: the processor,
 * restarted from the reset token, skips what is already applied.
 */
@Component
class BulkRebuild {

    static final int CHUNK = 50_000;
    /** As the storage engine: only gaps this close to the newest event can still fill. */
    private static final int MAX_GAP_OFFSET = 10_000;
    private static final int FETCH_SIZE = 5_000;

    private final EventStorageEngine storage;
    private final ChannelBalanceProjection projection;
    private final TransactionTemplate transactions;
    private final DataSource dataSource;
    private final Map<String, ObjectReader> readers;

    BulkRebuild(EventStorageEngine storage, ChannelBalanceProjection projection, PlatformTransactionManager transactions,
                DataSource dataSource, @Qualifier("eventSerializer") Serializer serializer,
                ObjectProvider<EventUpcaster> upcasters) {
        this.storage = storage;
        this.projection = projection;
        this.transactions = new TransactionTemplate(transactions);
        this.dataSource = dataSource;
        this.readers = serializer instanceof JacksonSerializer jackson && upcasters.stream().findAny().isEmpty()
                ? readersOf(jackson.getObjectMapper()) : null;
    }

    private static Map<String, ObjectReader> readersOf(ObjectMapper mapper) {
        Map<String, ObjectReader> readers = new HashMap<>();
        ChannelEvents.TYPES.forEach(type -> readers.put(type.getName(), mapper.readerFor(type)));
        return readers;
    }

    /** A channel event, deserialized. */
    private record Event(String channelId, long sequence, Instant at, Object payload) {
    }

    /** A chunk of events and the global index of the last stored event read with them. */
    private record Chunk(List<Event> events, long position) {
    }

    private static final Chunk END = new Chunk(List.of(), -1);

    /**
     * Applies every stored event; {@code applied} follows the global index whose events are all
     * written. Returns the token of the last event read, null when the store is empty.
     */
    TrackingToken rebuild(AtomicLong applied) {
        BlockingQueue<Chunk> written = new ArrayBlockingQueue<>(1);
        CompletableFuture<Void> writer = new CompletableFuture<>();
        Thread.ofVirtual().name("read-model-rebuild-writer").start(() -> {
            try {
                for (Chunk chunk = written.take(); chunk != END; chunk = written.take()) {
                    write(chunk.events());
                    applied.set(chunk.position());
                }
                writer.complete(null);
            } catch (Throwable e) {
                writer.completeExceptionally(e);
            }
        });
        try {
            TrackingToken last = readers == null ? readThroughEngine(written, writer) : readRows(written, writer);
            hand(written, writer, END);
            writer.get();
            return last;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while rebuilding the read models", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("writing the rebuilt read models failed: " + e.getCause(), e.getCause());
        } catch (SQLException | IOException e) {
            throw new IllegalStateException("reading the event store failed: " + e, e);
        }
    }

    /** Every stored row in global order; returns the token after the last one, with its recent gaps. */
    private TrackingToken readRows(BlockingQueue<Chunk> written, CompletableFuture<Void> writer)
            throws SQLException, IOException, InterruptedException, ExecutionException {
        long last = 0;
        TreeSet<Long> gaps = new TreeSet<>();
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement query = connection.prepareStatement("SELECT global_index, aggregate_identifier,"
                    + " sequence_number, time_stamp, payload_type, payload FROM domain_event_entry ORDER BY global_index")) {
                query.setFetchSize(FETCH_SIZE);
                try (ResultSet rows = query.executeQuery()) {
                    List<Event> events = new ArrayList<>(CHUNK);
                    while (rows.next()) {
                        long index = rows.getLong(1);
                        for (long gap = Math.max(last + 1, index - MAX_GAP_OFFSET); gap < index; gap++) {
                            gaps.add(gap);
                        }
                        last = index;
                        ObjectReader reader = readers.get(rows.getString(5));
                        if (reader != null) {
                            events.add(new Event(rows.getString(2), rows.getLong(3),
                                    DateTimeUtils.parseInstant(rows.getString(4)), reader.readValue(rows.getString(6))));
                        }
                        if (events.size() == CHUNK) {
                            hand(written, writer, new Chunk(events, index));
                            events = new ArrayList<>(CHUNK);
                            gaps.headSet(index - MAX_GAP_OFFSET).clear();
                        }
                    }
                    hand(written, writer, new Chunk(events, last));
                }
            }
            connection.rollback();
        }
        if (last == 0) {
            return null;
        }
        gaps.headSet(last - MAX_GAP_OFFSET).clear();
        return GapAwareTrackingToken.newInstance(last, gaps);
    }

    /** The storage engine's stream, upcast and deserialized as a processor sees it. */
    private TrackingToken readThroughEngine(BlockingQueue<Chunk> written, CompletableFuture<Void> writer)
            throws InterruptedException, ExecutionException {
        TrackingToken last = null;
        try (Stream<? extends TrackedEventMessage<?>> stream = storage.readEvents(null, false)) {
            Iterator<? extends TrackedEventMessage<?>> iterator = stream.iterator();
            List<Event> events = new ArrayList<>(CHUNK);
            while (iterator.hasNext()) {
                TrackedEventMessage<?> message = iterator.next();
                last = message.trackingToken();
                if (message instanceof DomainEventMessage<?> event && ChannelEvents.TYPES.contains(event.getPayloadType())) {
                    events.add(new Event(event.getAggregateIdentifier(), event.getSequenceNumber(), event.getTimestamp(),
                            event.getPayload()));
                }
                if (events.size() == CHUNK) {
                    hand(written, writer, new Chunk(events, last.position().orElse(0)));
                    events = new ArrayList<>(CHUNK);
                }
            }
            hand(written, writer, new Chunk(events, last == null ? 0 : last.position().orElse(0)));
        }
        return last;
    }

    /** Passes a chunk to the writer, unless the writer has failed (then its failure surfaces). */
    private static void hand(BlockingQueue<Chunk> queue, CompletableFuture<Void> writer, Chunk chunk)
            throws InterruptedException, ExecutionException {
        while (!queue.offer(chunk, 100, TimeUnit.MILLISECONDS)) {
            if (writer.isDone()) {
                writer.get();
                throw new IllegalStateException("the writer stopped early");
            }
        }
    }

    private void write(List<Event> events) {
        if (events.isEmpty()) {
            return;
        }
        Set<String> channelIds = new LinkedHashSet<>();
        events.forEach(event -> channelIds.add(event.channelId()));
        transactions.executeWithoutResult(status -> {
            RowBatch<ChannelBalance> batch = projection.batchOf(channelIds);
            for (Event event : events) {
                projection.apply(batch, event.payload(), event.sequence(), event.at());
            }
            projection.complete(batch);
        });
    }
}
