package io.chanledger.projections.rebuild;

import io.chanledger.domain.channel.ChannelEvent;
import io.chanledger.projections.readmodel.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.stereotype.Component;

/**
 * The event store's table, {@code domain_event_entry}, read directly: the one place its SQL is
 * written, for the rebuild, the replay's progress, the audit's export and fold, the contract's
 * settings and the channel cache's check. Rows come in the columns {@link #COLUMNS} names, so
 * callbacks read them by name.
 */
@Component
public class EventTable {

    /** The columns every read of whole events selects. */
    public static final String COLUMNS =
            "global_index, aggregate_identifier, sequence_number, time_stamp, payload_type, payload";
    private static final String TABLE = "domain_event_entry";

    /** The lowest and highest global index stored. */
    public record Range(long low, long high) {
    }

    private final JdbcTemplate jdbc;
    private final JdbcTemplate streaming;

    public EventTable(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.streaming = new JdbcTemplate(dataSource);
        this.streaming.setFetchSize(1_000);
    }

    /** The global index of the newest event (0 when the store is empty). */
    public long head() {
        Long head = jdbc.queryForObject("SELECT MAX(global_index) FROM " + TABLE, Long.class);
        return head == null ? 0 : head;
    }

    /** The global index of an aggregate's newest event; 0 when it has none. */
    public long newestOf(String aggregateIdentifier) {
        List<Long> newest = jdbc.queryForList("SELECT global_index FROM " + TABLE
                + " WHERE aggregate_identifier = ? ORDER BY sequence_number DESC LIMIT 1", Long.class, aggregateIdentifier);
        return newest.isEmpty() ? 0 : newest.getFirst();
    }

    /** The global indexes stored; empty when the store is. */
    public Optional<Range> range() {
        Map<String, Object> range = jdbc.queryForMap("SELECT MIN(global_index) AS low, MAX(global_index) AS high FROM "
                + TABLE);
        if (range.get("high") == null) {
            return Optional.empty();
        }
        return Optional.of(new Range(((Number) range.get("low")).longValue(), ((Number) range.get("high")).longValue()));
    }

    /** How many channel events have a global index above {@code after} and up to {@code upTo}. */
    public long channelEventsBetween(long after, long upTo) {
        if (upTo <= after) {
            return 0;
        }
        List<Object> args = new ArrayList<>(List.of(after, upTo));
        String types = channelEventTypes(args);
        Long count = jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE + " WHERE global_index > ?"
                + " AND global_index <= ? AND payload_type IN (" + types + ")", Long.class, args.toArray());
        return count == null ? 0 : count;
    }

    /**
     * Reads the events with a global index above {@code after} and up to {@code upTo}, in global
     * order, on {@code connection} (in its transaction), along the primary key's index on
     * PostgreSQL: left to itself, the planner may choose (and without statistics does) a bitmap
     * scan and a sort, the same rows at about twice the server's CPU time and none until all are
     * sorted. Columns as {@link #COLUMNS}, by position from 1.
     */
    public void slice(Connection connection, boolean postgres, long after, long upTo, int fetchSize,
                      RowCallbackHandler each) throws SQLException {
        if (postgres) {
            try (Statement settings = connection.createStatement()) {
                settings.execute("SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off;"
                        + " SET LOCAL enable_sort = off");
            }
        }
        try (PreparedStatement query = connection.prepareStatement("SELECT " + COLUMNS + " FROM " + TABLE
                + " WHERE global_index > ? AND global_index <= ? ORDER BY global_index")) {
            query.setLong(1, after);
            query.setLong(2, upTo);
            query.setFetchSize(fetchSize);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    each.processRow(rows);
                }
            }
        }
    }

    /**
     * The events after global index {@code after}, in global order, at most {@code limit} (no
     * limit when null); only those of {@code aggregateIds} when it is not empty. Columns as
     * {@link #COLUMNS}. Call it in a transaction, so that rows stream on PostgreSQL.
     */
    public void after(long after, Long limit, Collection<String> aggregateIds, RowCallbackHandler each) {
        StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM " + TABLE + " WHERE global_index > ?");
        List<Object> args = new ArrayList<>(List.of(after));
        inList(sql, args, aggregateIds);
        sql.append(" ORDER BY global_index");
        if (limit != null) {
            sql.append(" LIMIT ?");
            args.add(limit);
        }
        streaming.query(sql.toString(), each, args.toArray());
    }

    /**
     * The channel events, channel by channel in identifier order, each channel's in sequence;
     * only those of {@code channelIds} when it is not empty. Columns as {@link #COLUMNS}. Call it
     * in a transaction, so that rows stream on PostgreSQL.
     */
    public void channelEvents(Collection<String> channelIds, RowCallbackHandler each) {
        List<Object> args = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM " + TABLE + " WHERE payload_type IN (")
                .append(channelEventTypes(args)).append(")");
        inList(sql, args, channelIds);
        sql.append(" ORDER BY aggregate_identifier, sequence_number");
        streaming.query(sql.toString(), each, args.toArray());
    }

    /**
     * The newest events of {@code types} (channel event classes), newest first, at most
     * {@code limit}. Columns as {@link #COLUMNS}. Walks the primary key's index backwards until it
     * has found them, so it is quick while such events are not rare among the newest.
     */
    public void newest(Collection<Class<? extends ChannelEvent>> types, int limit, RowCallbackHandler each) {
        List<Object> args = new ArrayList<>();
        List<String> marks = new ArrayList<>();
        for (Class<?> type : types) {
            marks.add("?");
            args.add(type.getName());
        }
        args.add(limit);
        jdbc.query("SELECT " + COLUMNS + " FROM " + TABLE + " WHERE payload_type IN (" + String.join(", ", marks)
                + ") ORDER BY global_index DESC LIMIT ?", each, args.toArray());
    }

    /** The events of one aggregate, in sequence. Columns as {@link #COLUMNS}. */
    public void aggregate(String aggregateId, RowCallbackHandler each) {
        jdbc.query("SELECT " + COLUMNS + " FROM " + TABLE + " WHERE aggregate_identifier = ? ORDER BY sequence_number",
                each, aggregateId);
    }

    /**
     * The last sequence number of each of {@code aggregateIds} (null for one without events). One
     * correlated max() per aggregate: PostgreSQL answers each from the end of the (aggregate,
     * sequence) index, however long the aggregate's history. The identifiers go in padded lists
     * ({@link Sql#inLists}): a group commit asks this for every batch, of any size, and a statement
     * the database has seen before is planned once, where a new one is parsed and planned each time.
     */
    public Map<String, Long> lastSequences(List<String> aggregateIds) {
        Map<String, Long> latest = new HashMap<>();
        for (List<String> ids : Sql.inLists(aggregateIds)) {
            StringBuilder sql = new StringBuilder("SELECT ids.id, (SELECT MAX(e.sequence_number) FROM " + TABLE
                    + " e WHERE e.aggregate_identifier = ids.id) FROM (VALUES ");
            for (int i = 0; i < ids.size(); i++) {
                sql.append(i == 0 ? "(CAST(? AS VARCHAR(255)))" : ", (?)");
            }
            sql.append(") AS ids(id)");
            jdbc.query(sql.toString(), row -> {
                String id = row.getString(1);
                long sequence = row.getLong(2);
                // wasNull() answers for the column read last
                latest.put(id, row.wasNull() ? null : sequence);
            }, ids.toArray());
        }
        return latest;
    }

    private static String channelEventTypes(List<Object> args) {
        List<String> marks = new ArrayList<>();
        for (Class<?> type : ChannelEvent.TYPES) {
            marks.add("?");
            args.add(type.getName());
        }
        return String.join(", ", marks);
    }

    private static void inList(StringBuilder sql, List<Object> args, Collection<String> aggregateIds) {
        if (aggregateIds.isEmpty()) {
            return;
        }
        sql.append(" AND aggregate_identifier IN (").append(String.join(", ",
                aggregateIds.stream().map(id -> "?").toList())).append(")");
        args.addAll(aggregateIds);
    }
}
