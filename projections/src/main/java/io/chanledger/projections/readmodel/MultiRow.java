package io.chanledger.projections.readmodel;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.StringJoiner;

/**
 * Multi-row statements: a whole batch of rows in a few statements instead of one statement per
 * row, which is where a per-event read model spends its time on PostgreSQL. The SQL is standard
 * (multi-row {@code INSERT}, {@code MERGE} on a {@code VALUES} list) and runs on the handler tests' H2 as well.
 * Column types are spelled out because a {@code VALUES} list of parameters has none of its own.
 */
public final class MultiRow {

    /** A column, its SQL type, and its {@link java.sql.Types} code, with which a padding row's NULL is bound. */
    public record Column(String name, String type, int jdbcType) {
    }

    /**
     * Rows per statement: bounded to stay far below PostgreSQL's 32767 bind parameters, and a power
     * of two, as {@link #statementRows} makes every update statement.
     */
    public static final int ROWS_PER_STATEMENT = 512;
    /** A padding row's time ({@link #bindPadding}), never written. */
    private static final OffsetDateTime PADDING_TIME = OffsetDateTime.ofInstant(Instant.EPOCH, ZoneOffset.UTC);

    private MultiRow() {
    }

    /** {@code INSERT INTO table (columns) VALUES (?, …), … } for {@code rows} rows. */
    public static String insert(String table, List<Column> columns, int rows) {
        String row = "(" + Sql.placeholders(columns.size()) + ")";
        return "INSERT INTO " + table + " (" + names(columns) + ") VALUES "
                + String.join(", ", Collections.nCopies(rows, row));
    }

    /**
     * The rows an update statement carries for {@code rows} rows (at most {@link #ROWS_PER_STATEMENT}):
     * the next power of two, the rows past {@code rows} padding ({@link #bindPadding}). So the
     * database sees the same ten statements again and again, whatever the batches' sizes: the driver
     * prepares each on the server after a few uses, and PostgreSQL plans it once. A statement new to
     * it is parsed and planned at every execution, and for the channel read model's update of a
     * couple of hundred rows that cost the database four to five times the update itself
     * (BENCHMARKS.md, "The paid request": cheap identifiers and times).
     */
    public static int statementRows(int rows) {
        if (rows < 1 || rows > ROWS_PER_STATEMENT) {
            throw new IllegalArgumentException("rows per statement: 1 to " + ROWS_PER_STATEMENT + ", not " + rows);
        }
        return Integer.highestOneBit(rows) == rows ? rows : Integer.highestOneBit(rows) << 1;
    }

    /**
     * Binds the padding rows of an update statement, {@code count} rows from parameter {@code from}
     * on, each with a NULL key, which matches no row: they change nothing. Every parameter is bound
     * with the type a row's value has, since one whose type changes between executions makes the
     * driver prepare the statement again: NULLs of the column's type, but for a timestamp, which
     * PostgreSQL's driver binds as a NULL of no type, and as {@code timestamptz} when it has a
     * value, so a padding row carries a value there.
     */
    public static void bindPadding(PreparedStatement statement, List<Column> columns, int from, int count)
            throws SQLException {
        int parameter = from;
        for (int row = 0; row < count; row++) {
            for (Column column : columns) {
                if (column.jdbcType() == Types.TIMESTAMP_WITH_TIMEZONE) {
                    statement.setObject(parameter++, PADDING_TIME);
                } else {
                    statement.setNull(parameter++, column.jdbcType());
                }
            }
        }
    }

    /**
     * Updates the existing rows found by {@code key} (the first column) with the other columns:
     * {@code MERGE INTO table USING (VALUES …) ON key WHEN MATCHED THEN UPDATE}, with {@code rows}
     * rows of values, padding included ({@link #statementRows}).
     */
    public static String update(String table, List<Column> columns, int rows) {
        StringJoiner row = new StringJoiner(", ", "(", ")");
        for (Column column : columns) {
            row.add("CAST(? AS " + column.type() + ")");
        }
        String key = columns.getFirst().name();
        StringJoiner set = new StringJoiner(", ");
        for (Column column : columns.subList(1, columns.size())) {
            set.add(column.name() + " = s." + column.name());
        }
        return "MERGE INTO " + table + " t USING (SELECT * FROM (VALUES "
                + String.join(", ", Collections.nCopies(rows, row.toString())) + ") AS v (" + names(columns)
                + ")) s ON t." + key + " = s." + key + " WHEN MATCHED THEN UPDATE SET " + set;
    }

    /** {@code rows} in lists of at most {@link #ROWS_PER_STATEMENT}. */
    public static <R> List<List<R>> chunks(List<R> rows) {
        List<List<R>> chunks = new ArrayList<>();
        for (int from = 0; from < rows.size(); from += ROWS_PER_STATEMENT) {
            chunks.add(rows.subList(from, Math.min(rows.size(), from + ROWS_PER_STATEMENT)));
        }
        return chunks;
    }

    private static String names(List<Column> columns) {
        StringJoiner names = new StringJoiner(", ");
        columns.forEach(column -> names.add(column.name()));
        return names.toString();
    }
}
