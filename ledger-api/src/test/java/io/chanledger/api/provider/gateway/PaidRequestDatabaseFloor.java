package io.chanledger.api.provider.gateway;

import io.chanledger.api.eventstore.DeferredCommitDataSource;
import io.chanledger.api.config.LedgerProperties;
import io.chanledger.api.support.ServiceCpu;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

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
 *
 * <p>Last, those two single round trips again, with a pause of {@link #PAUSE_MICROS} before each
 * request, as a lone agent's requests come (one every 1.2 to 2 ms through the gateway): between them
 * the two database sessions, and the cores they run on, are idle. Sent back to back, as above, they
 * never are. A statement that finds its session's process asleep and a core idle waits for both to
 * wake, and that wait is part of what a lone agent's request meets (BENCHMARKS.md, "The paid request").
 *
 * <p>When the bench measures CPU: the database's CPU for what paid requests under load must make
 * durable, and nothing else ({@link #printUnderLoad}).
 */
final class PaidRequestDatabaseFloor {

    private static final int WARM_UP = 2_000;
    private static final int MEASURED = 5_000;
    /** The pause before each request of the last measure: about a lone agent's time between its requests. */
    static final long PAUSE_MICROS = 1_000;
    private static final String EVENT_COLUMNS = "event_identifier, aggregate_identifier, sequence_number, type, "
            + "time_stamp, payload_type, payload_revision, payload, meta_data";
    private static final String ANSWER_COLUMNS = "channel_id, nonce, amount, signature, headers, body, answered_at";
    private static final String INSERT_EVENT = "INSERT INTO bench_floor_event (" + EVENT_COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String INSERT_ANSWER = "INSERT INTO bench_floor_answer (" + ANSWER_COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, now())";

    private record EventRow(String aggregate, String type, String timeStamp, String payloadType, String revision,
                            String payload, String metaData) {
    }

    private record AnswerRow(String signature, String headers, String body) {
    }

    private PaidRequestDatabaseFloor() {
    }

    /** The writers of the measure under load: the service's commit workers. */
    private static final int LOAD_WRITERS = LedgerProperties.GROUP_COMMIT_WORKERS;
    /**
     * Paid requests per commit under load: about what 64 concurrent channels give the group commit
     * (0.25–0.3 commits per paid request, a hold's and a settlement's), and the most they could
     * (all 64 waiting, shared by the two workers).
     */
    private static final int[] LOAD_REQUESTS_PER_COMMIT = {8, 32};
    private static final long LOAD_WARM_UP_NANOS = 2_000_000_000L;
    private static final long LOAD_MEASURED_NANOS = 5_000_000_000L;

    /**
     * Arguments: JDBC URL of a gateway bench's database after a run, user, password, and the clock
     * ticks per second of {@code /proc} (0 or none: the measure under load is left out).
     */
    public static void main(String[] args) throws SQLException, IOException, InterruptedException {
        print(args[0], args[1], args[2], args.length > 3 ? Long.parseLong(args[3]) : 0);
    }

    /**
     * Prints the floors of a lone paid request, then, when {@code ticksPerSecond} is known (the
     * database runs on this machine), the database's CPU per paid request under load.
     */
    static void print(String jdbcUrl, String user, String password, long ticksPerSecond)
            throws SQLException, IOException, InterruptedException {
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
                if (ticksPerSecond > 0) {
                    System.out.printf("%nthe database's part of paid requests under load (%d clients, their rows only, "
                            + "no service): PostgreSQL CPU ms per paid request%n", LOAD_WRITERS);
                    System.out.println(
                            "| paid requests per commit | paid requests/s | PostgreSQL CPU ms per paid request |");
                    System.out.println("|---:|---:|---:|");
                    for (int perCommit : LOAD_REQUESTS_PER_COMMIT) {
                        printUnderLoad(jdbcUrl, user, password, ticksPerSecond, perCommit, hold, settled, answer);
                    }
                }
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
        long[] pausedHolds = new long[MEASURED];
        long[] pausedSettlements = new long[MEASURED];
        durable.setAutoCommit(false);
        deferred.setAutoCommit(false);
        try (PreparedStatement select1 = plain.prepareStatement("SELECT 1");
             PreparedStatement holdInsert = deferred.prepareStatement(INSERT_EVENT);
             PreparedStatement answerInsert = durable.prepareStatement(INSERT_ANSWER);
             PreparedStatement settledInsert = durable.prepareStatement(INSERT_EVENT);
             PreparedStatement bothInserts = durable.prepareStatement(INSERT_ANSWER + "; " + INSERT_EVENT)) {
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
            sequence = singleRoundTrips(holdInsert, bothInserts, hold, settled, answer, sequence, WARM_UP, 0,
                    autocommitHolds, oneTripSettlements);
            singleRoundTrips(holdInsert, bothInserts, hold, settled, answer, sequence, WARM_UP / 4, PAUSE_MICROS,
                    pausedHolds, pausedSettlements);
        } finally {
            if (!durable.getAutoCommit()) {
                durable.rollback();
                durable.setAutoCommit(true);
            }
        }
        System.out.println();
        System.out.printf("database floor of a lone paid request (%,d in a row, one client, no service): p50 ms%n",
                MEASURED);
        System.out.println("| one round trip (SELECT 1) | the hold (insert, commit not waiting) | the settlement "
                + "(answer, insert, commit waiting for the disk) | both | the hold in autocommit (one statement) "
                + "| the settlement's two inserts in one round trip, in autocommit |");
        System.out.println("|---:|---:|---:|---:|---:|---:|");
        System.out.printf("| %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |%n", p50(roundTrip), p50(holds),
                p50(settlements), p50(sums(holds, settlements)), p50(autocommitHolds), p50(oneTripSettlements));
        System.out.printf("%nthe same two single round trips, %,d µs apart (the database's sessions idle between"
                + " requests, as a lone agent's find them): p50 ms%n", PAUSE_MICROS);
        System.out.println("| the hold in autocommit | the settlement in one round trip | both |");
        System.out.println("|---:|---:|---:|");
        System.out.printf("| %.3f | %.3f | %.3f |%n", p50(pausedHolds), p50(pausedSettlements),
                p50(sums(pausedHolds, pausedSettlements)));
    }

    /**
     * The lone path's two single round trips, {@code warmUp} times unmeasured and then
     * {@link #MEASURED} times, each request after a pause of {@code pauseMicros} (none when 0): the
     * hold in autocommit on the deferred session, then the answer and the settlement's event in one
     * round trip that waits for the disk. Records each one's time; answers the next sequence number.
     */
    private static long singleRoundTrips(PreparedStatement holdInsert, PreparedStatement bothInserts, EventRow hold,
                                         EventRow settled, AnswerRow answer, long sequence, int warmUp,
                                         long pauseMicros, long[] holds, long[] settlements) throws SQLException {
        for (int i = -warmUp; i < MEASURED; i++) {
            if (pauseMicros > 0) {
                LockSupport.parkNanos(pauseMicros * 1_000);
            }
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
                holds[i] = t1 - t0;
                settlements[i] = t2 - t1;
            }
        }
        return sequence;
    }

    private static long[] sums(long[] first, long[] second) {
        long[] sums = new long[first.length];
        for (int i = 0; i < sums.length; i++) {
            sums[i] = first[i] + second[i];
        }
        return sums;
    }

    /**
     * The database's CPU per paid request for the rows paid requests under load must make durable,
     * and nothing else: no service, no read model, no reader. {@link #LOAD_WRITERS} clients, as the
     * service has commit workers, each committing the holds of {@code perCommit} requests (their
     * events, a commit that does not wait for the disk), then their settlements (their answers and
     * events, a commit that waits), one batch of inserts per table, as the group commit sends them.
     * Measured from {@code /proc} over every {@code postgres} process, as the bench measures the
     * database's CPU per paid request through the service.
     */
    private static void printUnderLoad(String jdbcUrl, String user, String password, long ticksPerSecond,
                                       int perCommit, EventRow hold, EventRow settled, AnswerRow answer)
            throws SQLException, IOException, InterruptedException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl, user, password);
             Statement truncate = connection.createStatement()) {
            // each measure on empty tables, and with the same sequence numbers
            truncate.execute("TRUNCATE bench_floor_event, bench_floor_answer");
        }
        AtomicLong requests = new AtomicLong();
        AtomicBoolean measuring = new AtomicBoolean();
        AtomicReference<Exception> failure = new AtomicReference<>();
        long stopAt = System.nanoTime() + LOAD_WARM_UP_NANOS + LOAD_MEASURED_NANOS;
        // a session's CPU leaves /proc with its process: the writers stay connected until it is read
        CountDownLatch written = new CountDownLatch(LOAD_WRITERS);
        CountDownLatch read = new CountDownLatch(1);
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < LOAD_WRITERS; w++) {
            long firstSequence = (w + 1) * 1_000_000_000_000L;
            writers.add(Thread.ofPlatform().name("floor-writer-" + w).start(() -> {
                boolean done = false;
                try (Connection durable = DriverManager.getConnection(jdbcUrl, user, password);
                     Connection deferred = DriverManager.getConnection(jdbcUrl, user, password)) {
                    writeUnderLoad(durable, deferred, firstSequence, stopAt, perCommit, hold, settled, answer,
                            requests, measuring);
                    written.countDown();
                    done = true;
                    read.await();
                } catch (SQLException | RuntimeException | InterruptedException e) {
                    failure.compareAndSet(null, e);
                } finally {
                    if (!done) {
                        written.countDown();
                    }
                }
            }));
        }
        Thread.sleep(LOAD_WARM_UP_NANOS / 1_000_000);
        long ticksBefore = ServiceCpu.postgresTicks();
        long started = System.nanoTime();
        measuring.set(true);
        written.await();
        double seconds = (System.nanoTime() - started) / 1e9;
        long ticks = ServiceCpu.postgresTicks() - ticksBefore;
        read.countDown();
        for (Thread writer : writers) {
            writer.join();
        }
        if (failure.get() != null) {
            String firstLine = failure.get().toString().lines().findFirst().orElse("");
            System.out.printf("| %d | failed: %s | |%n", perCommit, firstLine);
            return;
        }
        long paid = requests.get();
        System.out.printf("| %d | %.0f | %.3f |%n", perCommit, paid / seconds,
                ticks * 1000.0 / ticksPerSecond / paid);
    }

    private static void writeUnderLoad(Connection durable, Connection deferred, long firstSequence, long stopAt,
                                       int perCommit, EventRow hold, EventRow settled, AnswerRow answer,
                                       AtomicLong requests, AtomicBoolean measuring) throws SQLException {
        try (Statement setting = deferred.createStatement()) {
            setting.execute(DeferredCommitDataSource.DEFERRED_SESSION);
        }
        durable.setAutoCommit(false);
        deferred.setAutoCommit(false);
        try (PreparedStatement holds = deferred.prepareStatement(INSERT_EVENT);
             PreparedStatement answers = durable.prepareStatement(INSERT_ANSWER);
             PreparedStatement settlements = durable.prepareStatement(INSERT_EVENT)) {
            long sequence = firstSequence;
            while (System.nanoTime() < stopAt) {
                for (int i = 0; i < perCommit; i++) {
                    bind(holds, hold, sequence + 2L * i, 0);
                    holds.addBatch();
                }
                holds.executeBatch();
                deferred.commit();
                for (int i = 0; i < perCommit; i++) {
                    bindAnswer(answers, hold.aggregate(), sequence + 2L * i + 1, answer);
                    answers.addBatch();
                    bind(settlements, settled, sequence + 2L * i + 1, 0);
                    settlements.addBatch();
                }
                answers.executeBatch();
                settlements.executeBatch();
                durable.commit();
                sequence += 2L * perCommit;
                if (measuring.get()) {
                    requests.addAndGet(perCommit);
                }
            }
        }
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
