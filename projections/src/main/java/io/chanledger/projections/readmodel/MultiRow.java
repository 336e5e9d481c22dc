package io.chanledger.projections.readmodel;

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

    /** A column and its SQL type. */
    public record Column(String name, String type) {
    }

    /** Rows per statement: bounded to stay far below PostgreSQL's 32767 bind parameters. */
    public static final int ROWS_PER_STATEMENT = 500;

    private MultiRow() {
    }

    /** {@code INSERT INTO table (columns) VALUES (?, …), … } for {@code rows} rows. */
    public static String insert(String table, List<Column> columns, int rows) {
        String row = "(" + Sql.placeholders(columns.size()) + ")";
        return "INSERT INTO " + table + " (" + names(columns) + ") VALUES "
                + String.join(", ", Collections.nCopies(rows, row));
    }

    /**
     * Updates {@code rows} existing rows found by {@code key} (the first column) with the other
     * columns: {@code MERGE INTO table USING (VALUES …) ON key WHEN MATCHED THEN UPDATE}.
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
