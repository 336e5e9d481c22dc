package io.chanledger.projections.channel;

import static io.chanledger.projections.readmodel.Sql.instant;
import static io.chanledger.projections.readmodel.Sql.setInstant;
import static io.chanledger.projections.readmodel.Sql.setUint;
import static io.chanledger.projections.readmodel.Sql.uint;

import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.domain.channel.CloseKind;
import io.chanledger.projections.readmodel.CopyRows;
import io.chanledger.projections.readmodel.MultiRow;
import io.chanledger.projections.readmodel.RowStore;
import io.chanledger.projections.readmodel.Sql;
import io.chanledger.projections.readmodel.TableChecksum;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.function.Function;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;

/** The {@code channel_balance} table: batch writes for the projection, keyset-paged reads for the API. */
@Component
public class ChannelBalanceRepository implements RowStore<ChannelBalance> {

    /**
     * How one column is typed, bound, copied and spelled in the checksum: the one place a value of
     * each type is written, so that a new field of {@link ChannelState} is one line of {@link #COLUMNS_OF}.
     * Its JDBC type is the one its values are bound with ({@link #bind}), and a padding row's too.
     */
    private enum Type {
        TEXT("VARCHAR", Types.VARCHAR), UINT("NUMERIC(78, 0)", Types.NUMERIC), LONG("BIGINT", Types.BIGINT),
        BOOLEAN("BOOLEAN", Types.BOOLEAN), TIMESTAMP("TIMESTAMP WITH TIME ZONE", Types.TIMESTAMP_WITH_TIMEZONE);

        private final String sql;
        private final int jdbc;

        Type(String sql, int jdbc) {
            this.sql = sql;
            this.jdbc = jdbc;
        }
    }

    private record Column(String name, Type type, Function<ChannelBalance, Object> value) {
    }

    private static final List<Column> COLUMNS_OF = List.of(
            new Column("channel_id", Type.TEXT, ChannelBalance::channelId),
            new Column("consumer", Type.TEXT, b -> b.state().consumer()),
            new Column("provider", Type.TEXT, b -> b.state().provider()),
            new Column("deposit", Type.UINT, b -> b.state().deposit()),
            new Column("expiry", Type.LONG, b -> b.state().expiry()),
            new Column("status", Type.TEXT, b -> b.state().status().code()),
            new Column("provisional", Type.BOOLEAN, b -> b.state().provisional()),
            new Column("highest_amount", Type.UINT, b -> b.state().highestAmount()),
            new Column("highest_nonce", Type.UINT, b -> b.state().highestNonce()),
            new Column("highest_signature", Type.TEXT, b -> b.state().highestSignature()),
            new Column("voucher_count", Type.LONG, b -> b.state().voucherCount()),
            new Column("claimed", Type.UINT, b -> b.state().claimed()),
            new Column("claimable", Type.UINT, b -> b.state().claimable()),
            new Column("fees_paid", Type.UINT, b -> b.state().feesPaid()),
            new Column("refund", Type.UINT, b -> b.state().refund()),
            new Column("close_kind", Type.TEXT, b -> b.state().closeKind() == null ? null : b.state().closeKind().name()),
            new Column("authorized_close_amount", Type.UINT, b -> b.state().authorizedCloseAmount()),
            new Column("charged_total", Type.UINT, b -> b.state().chargedTotal()),
            new Column("holds", Type.TEXT, b -> holdsText(b.state().holds())),
            new Column("returned", Type.UINT, b -> b.state().returned()),
            new Column("last_activity", Type.TIMESTAMP, ChannelBalance::lastActivity),
            new Column("last_sequence", Type.LONG, ChannelBalance::lastSequence));
    private static final List<MultiRow.Column> TYPED_COLUMNS = COLUMNS_OF.stream()
            .map(c -> new MultiRow.Column(c.name(), c.type().sql, c.type().jdbc)).toList();
    private static final List<String> COLUMN_NAMES = COLUMNS_OF.stream().map(Column::name).toList();
    private static final String COLUMNS = String.join(", ", COLUMN_NAMES);
    private static final String AT_RISK = "status <> 'closed' AND claimable > 0 AND expiry <= ?";
    private static final RowMapper<ChannelBalance> ROW = (rows, n) -> map(rows);

    private final JdbcTemplate jdbc;
    private final JdbcTemplate streaming;

    public ChannelBalanceRepository(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.streaming = new JdbcTemplate(dataSource);
        this.streaming.setFetchSize(1_000);
    }

    @Override
    public Map<String, ChannelBalance> findAll(Collection<String> channelIds) {
        Map<String, ChannelBalance> found = new HashMap<>();
        for (List<String> ids : Sql.inLists(channelIds)) {
            jdbc.query("SELECT " + COLUMNS + " FROM channel_balance WHERE channel_id IN (" + Sql.placeholders(ids.size())
                    + ")", rows -> {
                        ChannelBalance row = map(rows);
                        found.put(row.channelId(), row);
                    }, ids.toArray());
        }
        return found;
    }

    @Override
    public void insertAll(List<ChannelBalance> rows) {
        // in key order the primary key's index takes the rows leaf after leaf: a rebuild's 10,000
        // rows at a time cost PostgreSQL a sixth less than in the order the fold hands them on
        List<ChannelBalance> inKeyOrder = new ArrayList<>(rows);
        inKeyOrder.sort(Comparator.comparing(ChannelBalance::channelId));
        if (CopyRows.copy(jdbc, "channel_balance", COLUMN_NAMES, inKeyOrder, ChannelBalanceRepository::copy)) {
            return;
        }
        for (List<ChannelBalance> chunk : MultiRow.chunks(inKeyOrder)) {
            jdbc.update(MultiRow.insert("channel_balance", TYPED_COLUMNS, chunk.size()), statement -> bind(statement, chunk));
        }
    }

    @Override
    public void updateAll(List<ChannelBalance> rows) {
        for (List<ChannelBalance> chunk : MultiRow.chunks(rows)) {
            int statementRows = MultiRow.statementRows(chunk.size());
            jdbc.update(MultiRow.update("channel_balance", TYPED_COLUMNS, statementRows), statement -> MultiRow.bindPadding(
                    statement, TYPED_COLUMNS, bind(statement, chunk), statementRows - chunk.size()));
        }
    }

    public Optional<ChannelBalance> find(String channelId) {
        return jdbc.query("SELECT " + COLUMNS + " FROM channel_balance WHERE channel_id = ?", ROW, channelId)
                .stream().findFirst();
    }

    /**
     * Whether the ledger knows a channel from {@code consumer} to {@code provider} (lowercase
     * addresses), in any state: a paying relationship between the two, which the chain shows.
     */
    public boolean hasChannel(String consumer, String provider) {
        return Boolean.TRUE.equals(jdbc.queryForObject("SELECT EXISTS (SELECT 1 FROM channel_balance "
                + "WHERE consumer = ? AND provider = ?)", Boolean.class, consumer, provider));
    }

    /**
     * One page of channels matching {@code query}, in channel id order, starting after
     * {@code query.after()}; {@code atRiskExpiry} is the latest expiry that counts as at risk now.
     */
    public List<ChannelBalance> page(ChannelQuery query, long atRiskExpiry) {
        StringBuilder sql = new StringBuilder("SELECT ").append(COLUMNS).append(" FROM channel_balance WHERE 1 = 1");
        List<Object> args = new ArrayList<>();
        if (query.provider() != null) {
            sql.append(" AND provider = ?");
            args.add(query.provider());
        }
        if (query.consumer() != null) {
            sql.append(" AND consumer = ?");
            args.add(query.consumer());
        }
        if (query.status() != null) {
            sql.append(" AND status = ?");
            args.add(query.status().code());
        }
        if (query.atRisk() != null) {
            sql.append(query.atRisk() ? " AND (" + AT_RISK + ")" : " AND NOT (" + AT_RISK + ")");
            args.add(atRiskExpiry);
        }
        if (query.after() != null) {
            sql.append(" AND channel_id > ?");
            args.add(query.after());
        }
        sql.append(" ORDER BY channel_id LIMIT ?");
        args.add(query.limit());
        return jdbc.query(sql.toString(), ROW, args.toArray());
    }

    /**
     * The provider's channels with something to claim, soonest expiry first (then channel id),
     * after the keyset position ({@code afterExpiry}, {@code afterChannelId}) when one is given.
     */
    public List<ChannelBalance> claimable(String provider, Long afterExpiry, String afterChannelId, int limit) {
        String sql = "SELECT " + COLUMNS + " FROM channel_balance WHERE provider = ? AND status <> 'closed'"
                + " AND claimable > 0";
        if (afterExpiry == null) {
            return jdbc.query(sql + " ORDER BY expiry, channel_id LIMIT ?", ROW, provider, limit);
        }
        return jdbc.query(sql + " AND (expiry > ? OR (expiry = ? AND channel_id > ?)) ORDER BY expiry, channel_id LIMIT ?",
                ROW, provider, afterExpiry, afterExpiry, afterChannelId, limit);
    }

    /**
     * Totals over every channel, from the figures the chain shows: channels by status, what the
     * contract holds for the channels not closed yet (deposit − claimed; an expired channel's
     * funds stay locked until it is closed), and what was claimed and paid in fees over all.
     */
    public NetworkTotals networkTotals() {
        return jdbc.queryForObject("SELECT COUNT(*) AS channels,"
                + " COALESCE(SUM(CASE WHEN status = 'open' THEN 1 ELSE 0 END), 0) AS open_channels,"
                + " COALESCE(SUM(CASE WHEN status = 'expired' THEN 1 ELSE 0 END), 0) AS expired_channels,"
                + " COALESCE(SUM(CASE WHEN status <> 'closed' THEN deposit - claimed ELSE 0 END), 0) AS locked,"
                + " COALESCE(SUM(claimed), 0) AS claimed, COALESCE(SUM(fees_paid), 0) AS fees_paid"
                + " FROM channel_balance", (r, n) -> new NetworkTotals(r.getLong("channels"), r.getLong("open_channels"),
                        r.getLong("expired_channels"), uint(r, "locked"), uint(r, "claimed"), uint(r, "fees_paid")));
    }

    /** The providers that claimed the most over all their channels, most first (then by address); none that claimed nothing. */
    public List<ProviderVolume> busiestProviders(int limit) {
        return jdbc.query("SELECT provider, COUNT(*) AS channels, SUM(claimed) AS claimed, SUM(fees_paid) AS fees_paid"
                        + " FROM channel_balance GROUP BY provider HAVING SUM(claimed) > 0"
                        + " ORDER BY SUM(claimed) DESC, provider LIMIT ?",
                (r, n) -> new ProviderVolume(r.getString("provider"), r.getLong("channels"), uint(r, "claimed"),
                        uint(r, "fees_paid")), limit);
    }

    /** Run inside a transaction on PostgreSQL, so that rows stream instead of being read all at once. */
    public TableChecksum checksum() {
        TableChecksum.Builder checksum = new TableChecksum.Builder("channel_balance");
        streaming.query("SELECT " + COLUMNS + " FROM channel_balance ORDER BY channel_id",
                rows -> {
                    checksum.add(canonical(map(rows)));
                });
        return checksum.build();
    }

    public long count() {
        Long count = jdbc.queryForObject("SELECT COUNT(*) FROM channel_balance", Long.class);
        return count == null ? 0 : count;
    }

    public void deleteAll() {
        Sql.clear(jdbc, "channel_balance");
    }

    static String canonical(ChannelBalance b) {
        return TableChecksum.line(COLUMNS_OF.stream().map(c -> c.value().apply(b)).toArray());
    }

    /**
     * Every row's columns in {@link #COLUMNS_OF} order, one row after the other, from the first
     * parameter on; returns the parameter after them.
     */
    private static int bind(PreparedStatement s, List<ChannelBalance> rows) throws SQLException {
        int i = 1;
        for (ChannelBalance row : rows) {
            for (Column column : COLUMNS_OF) {
                Object value = column.value().apply(row);
                switch (column.type()) {
                    case TEXT -> s.setString(i, (String) value);
                    case UINT -> setUint(s, i, (BigInteger) value);
                    case LONG -> s.setLong(i, (Long) value);
                    case BOOLEAN -> s.setBoolean(i, (Boolean) value);
                    case TIMESTAMP -> setInstant(s, i, (Instant) value);
                }
                i++;
            }
        }
        return i;
    }

    /** A row's columns in {@link #COLUMNS_OF} order, as a line of COPY text. */
    private static void copy(ChannelBalance row, CopyRows.Line line) {
        for (Column column : COLUMNS_OF) {
            Object value = column.value().apply(row);
            switch (column.type()) {
                case TEXT -> line.text((String) value);
                case UINT -> line.number((BigInteger) value);
                case LONG -> line.number((Long) value);
                case BOOLEAN -> line.bool((Boolean) value);
                case TIMESTAMP -> line.timestamp((Instant) value);
            }
        }
    }

    private static ChannelBalance map(ResultSet r) throws SQLException {
        String closeKind = r.getString("close_kind");
        ChannelState state = new ChannelState(r.getString("channel_id"), r.getString("consumer"),
                r.getString("provider"), uint(r, "deposit"), r.getLong("expiry"),
                ChannelStatus.valueOf(r.getString("status").toUpperCase(Locale.ROOT)), r.getBoolean("provisional"),
                uint(r, "highest_amount"), uint(r, "highest_nonce"), r.getString("highest_signature"),
                r.getLong("voucher_count"), uint(r, "claimed"), uint(r, "fees_paid"), uint(r, "refund"),
                closeKind == null ? null : CloseKind.valueOf(closeKind), uint(r, "authorized_close_amount"),
                uint(r, "charged_total"), holds(r.getString("holds")), uint(r, "returned"));
        return new ChannelBalance(state, instant(r, "last_activity"), r.getLong("last_sequence"));
    }

    /** Running requests' holds as "nonce:amount:until" entries separated by ';', in nonce order. */
    static String holdsText(Map<BigInteger, ChannelState.Hold> holds) {
        if (holds.isEmpty()) {
            return "";
        }
        StringJoiner text = new StringJoiner(";");
        new TreeMap<>(holds).forEach((nonce, hold) -> text.add(nonce + ":" + hold.amount() + ":" + hold.until()));
        return text.toString();
    }

    static Map<BigInteger, ChannelState.Hold> holds(String text) {
        if (text == null || text.isEmpty()) {
            return Map.of();
        }
        Map<BigInteger, ChannelState.Hold> holds = new HashMap<>();
        for (String entry : text.split(";")) {
            String[] parts = entry.split(":");
            holds.put(new BigInteger(parts[0]), new ChannelState.Hold(new BigInteger(parts[1]), Long.parseLong(parts[2])));
        }
        return holds;
    }
}
