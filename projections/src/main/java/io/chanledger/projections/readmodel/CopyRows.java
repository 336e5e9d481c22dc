package io.chanledger.projections.readmodel;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.StringJoiner;
import org.postgresql.copy.CopyIn;
import org.postgresql.core.BaseConnection;
import org.postgresql.jdbc.TimestampUtils;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Inserts rows with PostgreSQL's {@code COPY … FROM STDIN} (text format), several times faster
 * than multi-row {@code INSERT}s for the thousands of rows a rebuild writes at once. Values are
 * spelled as the JDBC driver spells bound parameters (timestamps through the driver's own
 * formatting), so a row reads back the same whichever way it was written. Runs on the connection
 * of the caller's transaction; on any other database it does nothing and says so.
 */
public final class CopyRows {

    /** Bytes sent to the server at a time. */
    private static final int SEND_BYTES = 1 << 16;

    /** Writes one row's values, in column order. */
    @FunctionalInterface
    public interface RowWriter<R> {
        void write(R row, Line line);
    }

    private CopyRows() {
    }

    /** Whether {@code jdbc}'s database is PostgreSQL (its connections are the PostgreSQL driver's). */
    public static boolean postgres(JdbcTemplate jdbc) {
        return Boolean.TRUE.equals(jdbc.execute((ConnectionCallback<Boolean>) connection ->
                connection.isWrapperFor(BaseConnection.class)));
    }

    /**
     * Copies {@code rows} into {@code table}; false (nothing written) when the database is not
     * PostgreSQL, so that the caller inserts them its own way.
     */
    public static <R> boolean copy(JdbcTemplate jdbc, String table, List<String> columns, List<R> rows,
                                   RowWriter<R> writer) {
        Boolean copied = jdbc.execute((ConnectionCallback<Boolean>) connection -> {
            if (!connection.isWrapperFor(BaseConnection.class)) {
                return false;
            }
            BaseConnection postgres = connection.unwrap(BaseConnection.class);
            StringJoiner names = new StringJoiner(", ");
            columns.forEach(names::add);
            CopyIn in = postgres.getCopyAPI().copyIn("COPY " + table + " (" + names + ") FROM STDIN");
            try {
                Line line = new Line(postgres.getTimestampUtils());
                for (R row : rows) {
                    writer.write(row, line);
                    line.end();
                    if (line.text.length() >= SEND_BYTES) {
                        send(in, line.text);
                    }
                }
                send(in, line.text);
                in.endCopy();
            } finally {
                if (in.isActive()) {
                    in.cancelCopy();
                }
            }
            return true;
        });
        return Boolean.TRUE.equals(copied);
    }

    private static void send(CopyIn in, StringBuilder text) throws SQLException {
        if (!text.isEmpty()) {
            byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
            in.writeToCopy(bytes, 0, bytes.length);
            text.setLength(0);
        }
    }

    /** One line of COPY text: values separated by tabs, {@code \N} for null, special characters escaped. */
    public static final class Line {

        private final StringBuilder text = new StringBuilder(SEND_BYTES + 4096);
        private final TimestampUtils timestamps;
        private boolean first = true;

        private Line(TimestampUtils timestamps) {
            this.timestamps = timestamps;
        }

        public Line text(String value) {
            if (value == null) {
                return nothing();
            }
            separate();
            if (plain(value)) {
                // ids, addresses and signatures: nothing to escape, the string goes as it is
                text.append(value);
                return this;
            }
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                switch (c) {
                    case '\\' -> text.append("\\\\");
                    case '\t' -> text.append("\\t");
                    case '\n' -> text.append("\\n");
                    case '\r' -> text.append("\\r");
                    default -> text.append(c);
                }
            }
            return this;
        }

        private static boolean plain(String value) {
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c == '\\' || c == '\t' || c == '\n' || c == '\r') {
                    return false;
                }
            }
            return true;
        }

        public Line number(BigInteger value) {
            if (value == null) {
                return nothing();
            }
            separate();
            text.append(value);
            return this;
        }

        public Line number(long value) {
            separate();
            text.append(value);
            return this;
        }

        public Line bool(boolean value) {
            separate();
            text.append(value ? 't' : 'f');
            return this;
        }

        public Line timestamp(Instant value) {
            if (value == null) {
                return nothing();
            }
            separate();
            text.append(timestamps.toString(OffsetDateTime.ofInstant(value, ZoneOffset.UTC)));
            return this;
        }

        private Line nothing() {
            separate();
            text.append("\\N");
            return this;
        }

        private void separate() {
            if (!first) {
                text.append('\t');
            }
            first = false;
        }

        private void end() {
            text.append('\n');
            first = true;
        }
    }
}
