package io.chanledger.projections.readmodel;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/** JDBC conversions shared by the read-model repositories; the SQL runs on PostgreSQL, and on H2 in handler tests. */
public final class Sql {

    private Sql() {
    }

    public static void setUint(PreparedStatement statement, int index, BigInteger value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.NUMERIC);
        } else {
            statement.setBigDecimal(index, new BigDecimal(value));
        }
    }

    public static BigInteger uint(ResultSet rows, String column) throws SQLException {
        BigDecimal value = rows.getBigDecimal(column);
        return value == null ? null : value.toBigIntegerExact();
    }

    public static void setInstant(PreparedStatement statement, int index, Instant value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
        } else {
            statement.setObject(index, OffsetDateTime.ofInstant(value, ZoneOffset.UTC));
        }
    }

    public static Instant instant(ResultSet rows, String column) throws SQLException {
        OffsetDateTime value = rows.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    /**
     * Empties a read model's table in the caller's transaction. On PostgreSQL with
     * {@code TRUNCATE}: a rebuild then writes into a fresh table and fresh indexes, not past the
     * dead row versions a {@code DELETE} leaves behind until a vacuum (which made the rebuild's
     * inserts half again as dear). Readers on other connections wait for the reset's commit, a
     * moment. Elsewhere (the handler tests' H2) with {@code DELETE}, since H2's {@code TRUNCATE}
     * commits the transaction.
     */
    public static void clear(JdbcTemplate jdbc, String table) {
        jdbc.update((CopyRows.postgres(jdbc) ? "TRUNCATE TABLE " : "DELETE FROM ") + table);
    }

    /** "?, ?, ?" with {@code count} placeholders. */
    public static String placeholders(int count) {
        return String.join(", ", Collections.nCopies(count, "?"));
    }

    /**
     * {@code keys} in lists of at most {@link MultiRow#ROWS_PER_STATEMENT}, each padded (by
     * repeating its last key) to a power of two ({@link MultiRow#statementRows}), so that the
     * database sees a few statements again and again, which it plans once, rather than a new
     * statement for every batch. For statements whose answer a repeated key does not change: an
     * {@code IN} list, or a {@code VALUES} list of keys looked up one by one.
     */
    public static List<List<String>> inLists(Collection<String> keys) {
        List<String> all = new ArrayList<>(keys);
        List<List<String>> lists = new ArrayList<>();
        for (List<String> chunk : MultiRow.chunks(all)) {
            List<String> list = new ArrayList<>(chunk);
            int length = MultiRow.statementRows(list.size());
            while (list.size() < length) {
                list.add(list.getLast());
            }
            lists.add(list);
        }
        return lists;
    }
}
