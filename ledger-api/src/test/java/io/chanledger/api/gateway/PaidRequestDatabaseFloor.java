package io.chanledger.api.gateway;

import io.chanledger.api.config.DeferredCommitDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.UUID;

/**
 * The database's part of a lone paid request, without the service (part of the gateway bench, not
 * a test): the statements a paid request's two commits send, from one client, one request after
 * another, each as the JDBC driver sends it. The admission's hold: its event inserted, then a
 * commit that does not wait for the disk, on a session whose {@code synchronous_commit} is off (as
 * the service's second pool). The settlement: the answer kept, its event inserted, then a commit
 * that waits for the disk. The rows are copies of a paid request's rows in the bench database, in
 * two tables made like the event store's and the answers' (indexes included) and dropped after.
 *
 * <p>What payment adds to a lone agent's latency cannot be less than this on the same machine:
 * five round trips to the database and one wait for the disk. Also measured: one bare round trip
 * ({@code SELECT 1}); and what fewer round trips would take: the hold sent as a single statement in
 * autocommit (no {@code COMMIT} of its own), and the settlement's two inserts sent together in
 * autocommit, in one round trip that waits for the disk.
 */
final class PaidRequestDatabaseFloor {

    private static final int WARM_UP = 2_000;
    private static final int MEASURED = 5_000;
    private static final String EVENT_COLUMNS = "event_identifier, aggregate_identifier, sequence_number, type, "
            + "time_stamp, payload_type, payload_revision, payload, meta_data";
    private static final String ANSWER_COLUMNS = "channel_id, nonce, amount, signature, headers, body, answered_at";

    private record EventRow(String aggregate, String type, String timeStamp, String payloadType, String revision,
                            String payload, String metaData) {
    }

    private record AnswerRow(String signature, String headers, String body) {
    }

    private PaidRequestDatabaseFloor() {
    }

    /** Arguments: JDBC URL of a gateway bench's database after a run, user, password. */
    public static void main(String[] args) throws SQLException {
        print(args[0], args[1], args[2]);
    }

    static void print(String jdbcUrl, String user, String password) throws SQLException {
        try (Connection durable = DriverManager.getConnection(jdbcUrl, user, password);
             Connection deferred = DriverManager.getConnection(jdbcUrl, user, password);
             Connection plain = DriverManager.getConnection(jdbcUrl, user, password)) {
            try (Statement setting = deferred.createStatement()) {
                setting.execute(DeferredCommitDataSource.DEFERRED_SESSION);
            }
            EventRow hold = sample(durable, "%VoucherAccepted");
            EventRow settled = sample(durable, "%RequestSettled");
            AnswerRow answer = sampleAnswer(durable);
            if (hold == null || settled == null || answer == null) {
                System.out.println("# database floor: no paid request's rows to copy");
                return;
            }
            try (Statement ddl = durable.createStatement()) {
                ddl.execute("DROP TABLE IF EXISTS bench_floor_event, bench_floor_answer");
                ddl.execute("CREATE TABLE bench_floor_event (LIKE domain_event_entry INCLUDING ALL)");
                ddl.execute("CREATE TABLE bench_floor_answer (LIKE gateway_answer INCLUDING ALL)");
            }
            try {
                measure(plain, durable, deferred, hold, settled, answer);
            } finally {
                try (Statement ddl = durable.createStatement()) {
                    ddl.execute("DROP TABLE IF EXISTS bench_floor_event, bench_floor_answer");
                }
            }
        }
    }

    private static void measure(Connection plain, Connection durable, Connection deferred, EventRow hold,
                                EventRow settled, AnswerRow answer) throws SQLException {
        long[] roundTrip = new long[MEASURED];
        long[] holds = new long[MEASURED];
        long[] settlements = new long[MEASURED];
        long[] autocommitHolds = new long[MEASURED];
        long[] oneTripSettlements = new long[MEASURED];
        durable.setAutoCommit(false);
        deferred.setAutoCommit(false);
        String insertEvent = "INSERT INTO bench_floor_event (" + EVENT_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
        String insertAnswer = "INSERT INTO bench_floor_answer (" + ANSWER_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, now())";
        try (PreparedStatement select1 = plain.prepareStatement("SELECT 1");
             PreparedStatement holdInsert = deferred.prepareStatement(insertEvent);
             PreparedStatement answerInsert = durable.prepareStatement(insertAnswer);
             PreparedStatement settledInsert = durable.prepareStatement(insertEvent);
             PreparedStatement bothInserts = durable.prepareStatement(insertAnswer + "; " + insertEvent)) {
            long sequence = 0;
            for (int i = -WARM_UP; i < MEASURED; i++) {
                long t0 = System.nanoTime();
                try (ResultSet one = select1.executeQuery()) {
                    one.next();
                }
                long t1 = System.nanoTime();
                bind(holdInsert, hold, sequence++, 0);
                holdInsert.executeUpdate();
                deferred.commit();
                long t2 = System.nanoTime();
                bindAnswer(answerInsert, hold.aggregate(), sequence, answer);
                answerInsert.executeUpdate();
                bind(settledInsert, settled, sequence++, 0);
                settledInsert.executeUpdate();
                durable.commit();
                long t3 = System.nanoTime();
                if (i >= 0) {
                    roundTrip[i] = t1 - t0;
                    holds[i] = t2 - t1;
                    settlements[i] = t3 - t2;
                }
            }
            deferred.commit();
            deferred.setAutoCommit(true);
            durable.commit();
            durable.setAutoCommit(true);
            for (int i = -WARM_UP; i < MEASURED; i++) {
                long t0 = System.nanoTime();
                bind(holdInsert, hold, sequence++, 0);
                holdInsert.executeUpdate();
                long t1 = System.nanoTime();
                // the driver sends both statements in one message sequence, answered at once
                bindAnswer(bothInserts, hold.aggregate(), sequence, answer);
                bind(bothInserts, settled, sequence++, 6);
                bothInserts.executeUpdate();
                long t2 = System.nanoTime();
                if (i >= 0) {
                    autocommitHolds[i] = t1 - t0;
                    oneTripSettlements[i] = t2 - t1;
                }
            }
        } finally {
            if (!durable.getAutoCommit()) {
                durable.rollback();
                durable.setAutoCommit(true);
            }
        }
        long[] pairs = new long[MEASURED];
        for (int i = 0; i < MEASURED; i++) {
            pairs[i] = holds[i] + settlements[i];
        }
        System.out.println();
        System.out.printf("database floor of a lone paid request (%,d in a row, one client, no service): p50 ms%n",
                MEASURED);
        System.out.println("| one round trip (SELECT 1) | the hold (insert, commit not waiting) | the settlement "
                + "(answer, insert, commit waiting for the disk) | both | the hold in autocommit (one statement) "
                + "| the settlement's two inserts in one round trip, in autocommit |");
        System.out.println("|---:|---:|---:|---:|---:|---:|");
        System.out.printf("| %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |%n", p50(roundTrip), p50(holds),
                p50(settlements), p50(pairs), p50(autocommitHolds), p50(oneTripSettlements));
    }

    /** Binds an event's nine values from parameter {@code after} + 1 on. */
    private static void bind(PreparedStatement insert, EventRow row, long sequence, int after) throws SQLException {
        insert.setString(after + 1, UUID.randomUUID().toString());
        insert.setString(after + 2, row.aggregate());
        insert.setLong(after + 3, sequence);
        insert.setString(after + 4, row.type());
        insert.setString(after + 5, row.timeStamp());
        insert.setString(after + 6, row.payloadType());
        insert.setString(after + 7, row.revision());
        insert.setString(after + 8, row.payload());
        insert.setString(after + 9, row.metaData());
    }

    /** Binds an answer's six values: its channel and nonce, an amount, and the sample's signature, headers and body. */
    private static void bindAnswer(PreparedStatement insert, String channel, long nonce, AnswerRow answer)
            throws SQLException {
        insert.setString(1, channel);
        insert.setLong(2, nonce);
        insert.setLong(3, 1_000);
        insert.setString(4, answer.signature());
        insert.setString(5, answer.headers());
        insert.setString(6, answer.body());
    }

    private static AnswerRow sampleAnswer(Connection connection) throws SQLException {
        try (Statement query = connection.createStatement();
             ResultSet row = query.executeQuery("SELECT signature, headers, body FROM gateway_answer LIMIT 1")) {
            return row.next() ? new AnswerRow(row.getString(1), row.getString(2), row.getString(3)) : null;
        }
    }

    private static EventRow sample(Connection connection, String payloadType) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT aggregate_identifier, type, time_stamp, "
                + "payload_type, payload_revision, payload, meta_data FROM domain_event_entry "
                + "WHERE payload_type LIKE ? ORDER BY global_index DESC LIMIT 1")) {
            query.setString(1, payloadType);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? new EventRow(row.getString(1), row.getString(2), row.getString(3),
                        row.getString(4), row.getString(5), row.getString(6), row.getString(7)) : null;
            }
        }
    }

    private static double p50(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 1e6;
    }
}
