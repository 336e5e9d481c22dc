package io.chanledger.api.eventstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import io.chanledger.storage.EventTimestamps;
import org.axonframework.common.transaction.NoTransactionManager;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericDomainEventEntry;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.TrackedDomainEventData;
import org.axonframework.eventhandling.TrackedEventData;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.eventsourcing.eventstore.jdbc.statements.JdbcEventStorageEngineStatements;
import org.axonframework.eventsourcing.eventstore.jdbc.statements.TimestampWriter;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.Serializer;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Axon's JDBC event storage engine, reading the store in order (what every tracking processor and
 * the event store's shared reader do) with one query per batch, and ending the read at the first
 * batch that is not full.
 *
 * <p>Axon's own reads take a window of global indexes ({@code index < g <= index + batch}) and, as
 * a window can be empty while events lie beyond it (identities burnt by rolled-back inserts), an
 * empty window costs a second query for the next index there is. And a read goes on until a batch
 * comes back empty. The shared reader reads after every commit of this process, and again until
 * it finds nothing, so a commit of one event cost three transactions and five statements: the
 * event, an empty window and its second query, and the reader's own read again with its second
 * query: for a lone agent's paid request, nine statements to read its two events, and the
 * reader's thread used more of the service's CPU than any but the HTTP handlers' (BENCHMARKS.md,
 * "The paid request": one query per batch, and a reader that lingers).
 *
 * <p>Here a batch is the next {@code batch} events after the index, whatever their indexes
 * ({@code ORDER BY g LIMIT batch}, an index range scan of the primary key), with the token's gaps
 * read beside it in a query of their own: an empty answer means there is nothing after the index,
 * so no second query is needed, and a batch that is not full means the store held no more when it
 * was read. The tokens are Axon's, built by Axon from the rows as before, gaps and all.
 *
 * <p>The shared reader asks again at once whenever a read found events. When that read ended at a
 * batch that was not full, the store holds nothing new for it unless a transaction committed
 * since that batch was queried, and this instance's commits of events are counted here, after the
 * database commit and before the event store wakes its reader. So the read that follows right
 * after ({@link #RE_READ_WITHIN}), from where the last one ended, with no commit of this instance
 * counted since, is answered "nothing" without a query; once only, so that the next read asks the
 * store again. What another instance committed in that instant is found by that next read: at
 * this instance's next commit, or within a second (the reader asks at least once a second), as
 * other instances' events are found anyway.
 *
 * <p>A read in order runs in no transaction when none is running on its thread (the shared
 * reader's and the processors' reads): its one query is a transaction of its own, and the one Axon
 * would open around it cost a round trip to the database for its COMMIT, and Spring's start and
 * end of a transaction, about twice per lone agent's paid request (BENCHMARKS.md, "The paid request": one query per batch, and a reader that lingers).
 * Inside a running transaction the read takes part in it, as before. Appends, snapshots and an
 * aggregate's own events are read and written in transactions as Axon has them, except the
 * append of a {@link LoneCommit}: one statement, with no transaction around it.
 */
final class OneQueryPerBatchEventStorageEngine extends JdbcEventStorageEngine {

    /** How soon after a read that ended short a read from its end counts as the reader asking again. */
    static final Duration RE_READ_WITHIN = Duration.ofMillis(20);

    /** Set while this thread reads the store in order: its transaction manager then starts none. */
    private static final ThreadLocal<Boolean> READING_IN_ORDER = ThreadLocal.withInitial(() -> false);

    /**
     * The token's bookkeeping of gaps, Axon's defaults, set here because {@link #getTrackedEventData}
     * builds the tokens with them: gaps are kept at most this far behind a token's index...
     */
    static final int MAX_GAP_OFFSET = 10_000;
    /** ...for events younger than this (older ones cannot be followed by a transaction still running)... */
    static final int GAP_TIMEOUT_MILLIS = 60_000;
    /** ...and the first global index the store hands out. */
    static final long LOWEST_GLOBAL_SEQUENCE = 1;

    private final long reReadWithinNanos;
    /** Commits of this instance's events, counted once the database has committed them. */
    private final AtomicLong commitsOfEvents = new AtomicLong();
    /** The last read that ended at a batch that was not full; null once a read was answered without a query. */
    private final AtomicReference<ShortRead> lastShortRead = new AtomicReference<>();

    /**
     * A read that ended at a batch that was not full: where it ended, the commits counted when that
     * batch was queried, and when it ended.
     */
    private record ShortRead(TrackingToken end, long commitsBeforeQuery, long endedAtNanos) {
    }

    private OneQueryPerBatchEventStorageEngine(Builder builder, Duration reReadWithin) {
        super(builder);
        this.reReadWithinNanos = reReadWithin.toNanos();
    }

    /**
     * The engine {@code builder} describes, with {@code transactions} as its transaction manager,
     * reading as this class says.
     */
    static OneQueryPerBatchEventStorageEngine of(Builder builder, TransactionManager transactions) {
        return of(builder, transactions, RE_READ_WITHIN);
    }

    /**
     * As {@link #of(Builder, TransactionManager)}, with a read asking again counted as such within
     * {@code reReadWithin}.
     */
    static OneQueryPerBatchEventStorageEngine of(Builder builder, TransactionManager transactions,
                                                 Duration reReadWithin) {
        return new OneQueryPerBatchEventStorageEngine(builder
                .maxGapOffset(MAX_GAP_OFFSET)
                .gapTimeout(GAP_TIMEOUT_MILLIS)
                .lowestGlobalSequence(LOWEST_GLOBAL_SEQUENCE)
                .transactionManager(readingInOrderOutsideTransactions(transactions))
                .readEventDataWithoutGaps(OneQueryPerBatchEventStorageEngine::eventsAfter)
                .readEventDataWithGaps(OneQueryPerBatchEventStorageEngine::eventsAfterAndInGaps)
                .appendEvents(OneQueryPerBatchEventStorageEngine::appendStatement)
                // an empty answer of a query without a window means there is nothing after the index
                .extendedGapCheckEnabled(false), reReadWithin);
    }

    /** {@code transactions}, starting none for a read in order on a thread that runs none. */
    private static TransactionManager readingInOrderOutsideTransactions(TransactionManager transactions) {
        return () -> READING_IN_ORDER.get() && !TransactionSynchronizationManager.isActualTransactionActive()
                ? NoTransactionManager.INSTANCE.startTransaction()
                : transactions.startTransaction();
    }

    /**
     * Appends as Axon does, and counts the commit once the transaction has completed (committed or
     * not: a count too many only costs a query). Spring runs that before it returns from the commit,
     * so before Axon's unit of work wakes the event store's reader. Appended outside a transaction,
     * the events are committed when this returns.
     */
    @Override
    protected void appendEvents(List<? extends EventMessage<?>> events, Serializer serializer) {
        super.appendEvents(events, serializer);
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCompletion(int status) {
                    commitsOfEvents.incrementAndGet();
                }
            });
        } else {
            commitsOfEvents.incrementAndGet();
        }
    }

    /**
     * The statement appending {@code events}: Axon's own (a batch of one insert per event), or,
     * while a {@link LoneCommit} is open on this thread, one statement inserting them all, with the
     * rows the lone commit keeps beside them written by {@code WITH} clauses of the same statement.
     * One statement is one transaction in autocommit, so it commits all of them or none (a batch
     * of inserts, sent in autocommit, is not always one transaction: the driver may end it part
     * way to read replies).
     */
    static PreparedStatement appendStatement(Connection connection, EventSchema schema, Class<?> dataType,
                                             List<? extends EventMessage<?>> events, Serializer serializer,
                                             TimestampWriter timestampWriter) throws SQLException {
        LoneCommit lone = LoneCommit.current();
        if (lone == null) {
            return JdbcEventStorageEngineStatements.appendEvents(connection, schema, dataType, events, serializer,
                    timestampWriter);
        }
        List<LoneCommit.RowBesideEvents> beside = lone.takeRowsBesideEvents();
        StringBuilder sql = new StringBuilder();
        for (int i = 0; i < beside.size(); i++) {
            sql.append(i == 0 ? "WITH " : ", ").append("beside_").append(i).append(" AS (")
                    .append(beside.get(i).insert()).append(") ");
        }
        sql.append("INSERT INTO ").append(schema.domainEventTable()).append(" (").append(schema.domainEventFields())
                .append(") VALUES ").append(String.join(", ", Collections.nCopies(events.size(), "(?,?,?,?,?,?,?,?,?)")));
        PreparedStatement statement = connection.prepareStatement(sql.toString());
        try {
            int parameter = 1;
            for (LoneCommit.RowBesideEvents row : beside) {
                for (Object value : row.values()) {
                    statement.setObject(parameter++, value);
                }
            }
            for (EventMessage<?> message : events) {
                // the columns and values of Axon's own insert (JdbcEventStorageEngineStatements.appendEvents)
                DomainEventMessage<?> event = message instanceof DomainEventMessage<?> domain ? domain
                        : new GenericDomainEventMessage<>(null, message.getIdentifier(), 0L, message,
                        message::getTimestamp);
                SerializedObject<?> payload = event.serializePayload(serializer, dataType);
                SerializedObject<?> metaData = event.serializeMetaData(serializer, dataType);
                statement.setString(parameter++, event.getIdentifier());
                statement.setString(parameter++, event.getAggregateIdentifier());
                statement.setLong(parameter++, event.getSequenceNumber());
                statement.setString(parameter++, event.getType());
                timestampWriter.writeTimestamp(statement, parameter++, event.getTimestamp());
                statement.setString(parameter++, payload.getType().getName());
                statement.setString(parameter++, payload.getType().getRevision());
                statement.setObject(parameter++, payload.getData());
                statement.setObject(parameter++, metaData.getData());
            }
            // Axon runs an append as a batch: this one statement is its only entry
            statement.addBatch();
            return statement;
        } catch (SQLException | RuntimeException e) {
            statement.close();
            throw e;
        }
    }

    /** The first {@code batchSize} events after {@code globalIndex}. */
    static PreparedStatement eventsAfter(Connection connection, EventSchema schema, long globalIndex, int batchSize)
            throws SQLException {
        PreparedStatement statement = connection.prepareStatement(nextEvents(schema));
        statement.setLong(1, globalIndex);
        statement.setInt(2, batchSize);
        return statement;
    }

    /**
     * The events stored in the token's gaps since it was made, and the first {@code batchSize}
     * events after {@code globalIndex}, in order. Two selects rather than one with {@code OR}, so
     * that each stays an index scan however far behind the index is.
     */
    static PreparedStatement eventsAfterAndInGaps(Connection connection, EventSchema schema, long globalIndex,
                                                  int batchSize, List<Long> gaps) throws SQLException {
        String inGaps = "SELECT " + schema.trackedEventFields() + " FROM " + schema.domainEventTable()
                + " WHERE " + schema.globalIndexColumn() + " IN ("
                + gaps.stream().map(gap -> "?").collect(Collectors.joining(",")) + ")";
        PreparedStatement statement = connection.prepareStatement("(" + inGaps + ") UNION ALL (" + nextEvents(schema)
                + ") ORDER BY " + schema.globalIndexColumn() + " ASC");
        int parameter = 1;
        for (Long gap : gaps) {
            statement.setLong(parameter++, gap);
        }
        statement.setLong(parameter++, globalIndex);
        statement.setInt(parameter, batchSize);
        return statement;
    }

    private static String nextEvents(EventSchema schema) {
        return "SELECT " + schema.trackedEventFields() + " FROM " + schema.domainEventTable()
                + " WHERE " + schema.globalIndexColumn() + " > ? ORDER BY " + schema.globalIndexColumn()
                + " ASC LIMIT ?";
    }

    /**
     * Reads batch after batch from {@code trackingToken}, and stops after one that is not full;
     * nothing, without a query, when the reader asks again right after such a read with nothing
     * committed here since (see the class comment).
     */
    /** An event's time written as Axon writes it, without java.time's general formatter ({@link EventTimestamps}). */
    @Override
    protected void writeTimestamp(PreparedStatement statement, int position, Instant timestamp) throws SQLException {
        statement.setString(position, EventTimestamps.format(timestamp));
    }

    /**
     * An event read in order, and its token, as Axon's own engine reads them, but with the event's
     * time read from its text by {@link EventTimestamps} rather than java.time's general parser,
     * and once, however many ask: the token needs it first (whether the event is recent enough for
     * gaps before it to be kept), and the read models after. Axon's parser built a dozen objects
     * per event, a third of what the store's reader allocated under load (BENCHMARKS.md,
     * "The paid request": cheap identifiers and times).
     */
    @Override
    protected TrackedEventData<?> getTrackedEventData(ResultSet resultSet, GapAwareTrackingToken previousToken)
            throws SQLException {
        EventSchema schema = schema();
        long globalIndex = resultSet.getLong(schema.globalIndexColumn());
        String aggregateIdentifier = resultSet.getString(schema.aggregateIdentifierColumn());
        String eventIdentifier = resultSet.getString(schema.eventIdentifierColumn());
        TimeReadOnce<?> event = new TimeReadOnce<>(resultSet.getString(schema.typeColumn()),
                // Axon stores an event of no aggregate under its own identifier
                eventIdentifier.equals(aggregateIdentifier) ? null : aggregateIdentifier,
                resultSet.getLong(schema.sequenceNumberColumn()), eventIdentifier,
                resultSet.getString(schema.timestampColumn()), resultSet.getString(schema.payloadTypeColumn()),
                resultSet.getString(schema.payloadRevisionColumn()), readPayload(resultSet, schema.payloadColumn()),
                readPayload(resultSet, schema.metaDataColumn()));
        boolean keepsGaps = event.getTimestamp().isAfter(
                GenericEventMessage.clock.instant().minusMillis(GAP_TIMEOUT_MILLIS));
        GapAwareTrackingToken token;
        if (previousToken == null) {
            token = GapAwareTrackingToken.newInstance(globalIndex, keepsGaps
                    ? LongStream.range(Math.min(LOWEST_GLOBAL_SEQUENCE, globalIndex), globalIndex).boxed()
                            .collect(Collectors.toCollection(TreeSet::new))
                    : Collections.emptySortedSet());
        } else {
            token = previousToken.advanceTo(globalIndex, keepsGaps ? MAX_GAP_OFFSET : 0);
        }
        return new TrackedDomainEventData<>(token, event);
    }

    /** A stored event whose time is read from its text once, when first asked for. */
    private static final class TimeReadOnce<T> extends GenericDomainEventEntry<T> {

        private final String storedTime;
        private Instant time;

        private TimeReadOnce(String type, String aggregateIdentifier, long sequenceNumber, String eventIdentifier,
                             String storedTime, String payloadType, String payloadRevision, T payload, T metaData) {
            super(type, aggregateIdentifier, sequenceNumber, eventIdentifier, storedTime, payloadType, payloadRevision,
                    payload, metaData);
            this.storedTime = storedTime;
        }

        @Override
        public Instant getTimestamp() {
            Instant read = time;
            if (read == null) {
                read = EventTimestamps.parseOne(storedTime);
                time = read;
            }
            return read;
        }
    }

    @Override
    protected Stream<? extends TrackedEventData<?>> readEventData(TrackingToken trackingToken, boolean mayBlock) {
        ShortRead last = lastShortRead.get();
        if (last != null && Objects.equals(last.end(), trackingToken)
                && last.commitsBeforeQuery() == commitsOfEvents.get()
                && System.nanoTime() - last.endedAtNanos() < reReadWithinNanos
                && lastShortRead.compareAndSet(last, null)) {
            return Stream.empty();
        }
        return StreamSupport.stream(new Batches(trackingToken), false);
    }

    private final class Batches extends Spliterators.AbstractSpliterator<TrackedEventData<?>> {

        private TrackingToken lastToken;
        private Iterator<? extends TrackedEventData<?>> batch;
        private boolean lastBatchRead;

        private Batches(TrackingToken from) {
            super(Long.MAX_VALUE, Spliterator.ORDERED);
            this.lastToken = from;
        }

        @Override
        public boolean tryAdvance(Consumer<? super TrackedEventData<?>> action) {
            if (batch == null || !batch.hasNext()) {
                if (lastBatchRead) {
                    return false;
                }
                long commitsBeforeQuery = commitsOfEvents.get();
                List<? extends TrackedEventData<?>> events;
                READING_IN_ORDER.set(true);
                try {
                    events = fetchTrackedEvents(lastToken, batchSize());
                } finally {
                    READING_IN_ORDER.set(false);
                }
                lastBatchRead = events.size() < batchSize();
                batch = events.iterator();
                if (lastBatchRead) {
                    TrackingToken end = events.isEmpty() ? lastToken : events.getLast().trackingToken();
                    lastShortRead.set(new ShortRead(end, commitsBeforeQuery, System.nanoTime()));
                }
                if (!batch.hasNext()) {
                    return false;
                }
            }
            TrackedEventData<?> next = batch.next();
            lastToken = next.trackingToken();
            action.accept(next);
            return true;
        }
    }
}
