package io.chanledger.api.config;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Iterator;
import java.util.List;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.axonframework.eventhandling.TrackedEventData;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;

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
 * query. Measured on a lone agent's paid requests, that was a third of a millisecond of the
 * service's CPU per request, in a thread that shares the cores with the next request
 * (BENCHMARKS.md, "Round six").
 *
 * <p>Here a batch is the next {@code batch} events after the index, whatever their indexes
 * ({@code ORDER BY g LIMIT batch}, an index range scan of the primary key), with the token's gaps
 * read beside it in a query of their own: an empty answer means there is nothing after the index,
 * so no second query is needed, and a batch that is not full means the store held no more when it
 * was read. Readers that ask again (the shared reader always does after finding events, a
 * processor's stream when it catches up) see what was committed meanwhile. The tokens are Axon's,
 * built by Axon from the rows as before, gaps and all.
 */
final class OneQueryPerBatchEventStorageEngine extends JdbcEventStorageEngine {

    private OneQueryPerBatchEventStorageEngine(Builder builder) {
        super(builder);
    }

    /** The engine {@code builder} describes, reading as this class says. */
    static OneQueryPerBatchEventStorageEngine of(Builder builder) {
        return new OneQueryPerBatchEventStorageEngine(builder
                .readEventDataWithoutGaps(OneQueryPerBatchEventStorageEngine::eventsAfter)
                .readEventDataWithGaps(OneQueryPerBatchEventStorageEngine::eventsAfterAndInGaps)
                // an empty answer of a query without a window means there is nothing after the index
                .extendedGapCheckEnabled(false));
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

    /** Reads batch after batch from {@code trackingToken}, and stops after one that is not full. */
    @Override
    protected Stream<? extends TrackedEventData<?>> readEventData(TrackingToken trackingToken, boolean mayBlock) {
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
                List<? extends TrackedEventData<?>> events = fetchTrackedEvents(lastToken, batchSize());
                lastBatchRead = events.size() < batchSize();
                batch = events.iterator();
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
