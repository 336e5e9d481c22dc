package io.chanledger.api.eventstore;

import io.chanledger.api.config.RoleMigrations;
import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.TestDatabases;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.axonframework.common.DateTimeUtils;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.transaction.NoTransactionManager;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.serialization.json.JacksonSerializer;
import org.axonframework.spring.jdbc.SpringDataSourceConnectionProvider;
import org.axonframework.spring.messaging.unitofwork.SpringTransactionManager;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The event store read in order with one query per batch ({@link OneQueryPerBatchEventStorageEngine}),
 * on PostgreSQL with the service's own migrations: the same events and tokens as Axon's own engine
 * reads, in fewer statements, also past a run of identities no event took and through a token's gaps.
 */
class OneQueryPerBatchEventStorageEngineTest {

    private static final int BATCH = 3;

    private final String url = TestDatabases.recreate("one_query_per_batch");
    private final AtomicInteger statements = new AtomicInteger();
    private final DriverManagerDataSource dataSource =
            new DriverManagerDataSource(url, TestDatabases.USER, TestDatabases.PASSWORD);
    private OneQueryPerBatchEventStorageEngine engine;
    private OneQueryPerBatchEventStorageEngine rereading;
    private JdbcEventStorageEngine axonsOwn;
    private long sequence;

    @BeforeEach
    void migrate() {
        Flyway.configure().dataSource(url, TestDatabases.USER, TestDatabases.PASSWORD)
                .locations(RoleMigrations.CORE).load().migrate();
        // events are inserted here as another instance would: every read asks the store
        engine = OneQueryPerBatchEventStorageEngine.of(builder(), NoTransactionManager.INSTANCE, Duration.ZERO);
        // the reader asking again is told apart by time: long enough here for a slow machine
        rereading = OneQueryPerBatchEventStorageEngine.of(builder(), NoTransactionManager.INSTANCE, Duration.ofSeconds(30));
        axonsOwn = builder().build();
    }

    private JdbcEventStorageEngine.Builder builder() {
        JacksonSerializer serializer = JacksonSerializer.defaultSerializer();
        return JdbcEventStorageEngine.builder()
                .snapshotSerializer(serializer)
                .eventSerializer(serializer)
                .connectionProvider(countingStatements())
                .transactionManager(NoTransactionManager.INSTANCE)
                .schema(new AxonStorageConfiguration().eventSchema())
                .dataType(String.class)
                .batchSize(BATCH);
    }

    @Test
    void aReadEndsAtTheFirstBatchThatIsNotFullAndAgreesWithAxonsOwnEngine() {
        append(7);

        statements.set(0);
        List<TrackedEventMessage<?>> read = read(engine, null);
        int ours = statements.getAndSet(0);
        List<TrackedEventMessage<?>> axons = read(axonsOwn, null);
        int theirs = statements.get();

        assertThat(read).extracting(OneQueryPerBatchEventStorageEngineTest::index).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
        assertThat(read).extracting(TrackedEventMessage::trackingToken)
                .containsExactlyElementsOf(axons.stream().map(TrackedEventMessage::trackingToken).toList());
        // batches of 3, 3 and 1: the third is not full, so nothing more is asked
        assertThat(ours).isEqualTo(3);
        // Axon's own reads until a batch comes back empty, and asks what lies beyond an empty window
        assertThat(theirs).isEqualTo(5);
    }

    /** Times are written in Axon's text and read back as Axon's own engine reads them ({@link EventTimestamps}). */
    @Test
    void eventTimesAreWrittenAndReadAsAxonsOwnEngineDoes() throws SQLException {
        Instant time = Instant.parse("2026-11-28T07:01:36.123456789Z");
        engine.appendEvents(List.of(new GenericDomainEventMessage<>("Test", "timed", 0, "event", java.util.Map.of(),
                UUID.randomUUID().toString(), time)));

        try (Connection connection = DriverManager.getConnection(url, TestDatabases.USER, TestDatabases.PASSWORD);
             var stored = connection.createStatement().executeQuery(
                     "SELECT time_stamp FROM domain_event_entry WHERE aggregate_identifier = 'timed'")) {
            assertThat(stored.next()).isTrue();
            assertThat(stored.getString(1)).isEqualTo(DateTimeUtils.formatInstant(time)).isEqualTo("2026-11-28T07:01:36.123Z");
        }
        assertThat(read(engine, null)).extracting(TrackedEventMessage::getTimestamp)
                .containsExactlyElementsOf(read(axonsOwn, null).stream().map(TrackedEventMessage::getTimestamp).toList())
                .containsExactly(Instant.parse("2026-11-28T07:01:36.123Z"));
    }

    @Test
    void aReadThatFindsNothingIsOneStatement() {
        append(2);
        TrackingToken last = read(engine, null).getLast().trackingToken();

        statements.set(0);
        assertThat(read(engine, last)).isEmpty();
        assertThat(statements.get()).isEqualTo(1);
    }

    @Test
    void anEventPastARunOfIdentitiesNoEventTookIsRead() throws SQLException {
        append(2);
        TrackingToken last = read(engine, null).getLast().trackingToken();
        // rolled-back inserts burn identities: the next event stored may lie far past the last one
        insertAt(5_000);

        assertThat(read(engine, last)).extracting(OneQueryPerBatchEventStorageEngineTest::storedAt).containsExactly("at-5000");
    }

    @Test
    void anEventCommittedIntoAGapOfTheTokenIsReadWithThoseAfterIt() throws SQLException {
        append(2);
        insertAt(10); // 3 to 9 are gaps for a reader that reads 10: still running transactions, maybe
        GapAwareTrackingToken afterTen = (GapAwareTrackingToken) read(engine, null).getLast().trackingToken();
        assertThat(afterTen.getGaps()).containsExactly(3L, 4L, 5L, 6L, 7L, 8L, 9L);

        insertAt(5);
        insertAt(11);
        statements.set(0);
        List<TrackedEventMessage<?>> read = read(engine, afterTen);
        int counted = statements.get();

        assertThat(read).extracting(OneQueryPerBatchEventStorageEngineTest::storedAt).containsExactly("at-5", "at-11");
        assertThat(((GapAwareTrackingToken) read.getLast().trackingToken()).getGaps())
                .containsExactly(3L, 4L, 6L, 7L, 8L, 9L);
        assertThat(read).extracting(TrackedEventMessage::trackingToken)
                .containsExactlyElementsOf(read(axonsOwn, afterTen).stream().map(TrackedEventMessage::trackingToken).toList());
        assertThat(counted).as("one statement for the gaps and what follows them").isEqualTo(1);
    }

    /**
     * The tokens are built here, not by Axon's engine: gaps are kept before an event younger than
     * the gap timeout, and none before an older one (no transaction still running can fill them),
     * from the start of the store and past a token, as Axon's own engine keeps them.
     */
    @Test
    void gapsAreKeptBeforeRecentEventsAndNotBeforeOldOnesAsAxonsOwnEngineKeepsThem() throws SQLException {
        Instant old = Instant.now().minusMillis(OneQueryPerBatchEventStorageEngine.GAP_TIMEOUT_MILLIS + 60_000);
        insertAt(3, old);
        insertAt(6);
        insertAt(9, old);
        insertAt(12);

        List<TrackedEventMessage<?>> fromStart = read(engine, null);
        assertThat(fromStart).extracting(TrackedEventMessage::trackingToken)
                .containsExactlyElementsOf(read(axonsOwn, null).stream().map(TrackedEventMessage::trackingToken).toList());
        assertThat(fromStart).extracting(event -> List.copyOf(((GapAwareTrackingToken) event.trackingToken()).getGaps()))
                .containsExactly(List.of(), List.of(4L, 5L), List.of(), List.of(10L, 11L));

        TrackingToken afterThree = fromStart.getFirst().trackingToken();
        assertThat(read(engine, afterThree)).extracting(TrackedEventMessage::trackingToken)
                .containsExactlyElementsOf(read(axonsOwn, afterThree).stream().map(TrackedEventMessage::trackingToken)
                        .toList());
        assertThat(fromStart).extracting(TrackedEventMessage::getTimestamp)
                .containsExactlyElementsOf(read(axonsOwn, null).stream().map(TrackedEventMessage::getTimestamp).toList());
    }

    @Test
    void aFullBatchOfFilledGapsIsFollowedByTheNextBatch() throws SQLException {
        append(1);
        insertAt(20);
        TrackingToken afterTwenty = read(engine, null).getLast().trackingToken();
        for (long gap : new long[]{2, 3, 4, 5}) {
            insertAt(gap);
        }
        insertAt(21);
        insertAt(22);
        insertAt(23);
        insertAt(24);

        assertThat(read(engine, afterTwenty)).extracting(OneQueryPerBatchEventStorageEngineTest::storedAt)
                .containsExactly("at-2", "at-3", "at-4", "at-5", "at-21", "at-22", "at-23", "at-24");
    }

    @Test
    void theReaderAskingAgainRightAfterAReadThatEndedShortIsAnsweredWithoutAQueryOnce() throws SQLException {
        appendTo(rereading, 2);
        TrackingToken end = read(rereading, null).getLast().trackingToken();
        insertAt(3); // by another instance, which this one hears nothing of

        statements.set(0);
        assertThat(read(rereading, end)).isEmpty();
        assertThat(statements.get()).as("nothing was committed here since the read").isZero();
        // once only: the next read asks the store, and finds what the other instance committed
        assertThat(read(rereading, end)).extracting(OneQueryPerBatchEventStorageEngineTest::storedAt)
                .containsExactly("at-3");
        assertThat(statements.get()).isEqualTo(1);
    }

    @Test
    void aReadFromElsewhereThanWhereTheLastReadEndedAsksTheStore() {
        appendTo(rereading, 3);
        List<TrackedEventMessage<?>> all = read(rereading, null);

        statements.set(0);
        assertThat(read(rereading, all.getFirst().trackingToken())).hasSize(2);
        assertThat(statements.get()).isEqualTo(1);
    }

    @Test
    void eventsCommittedHereAfterAReadThatEndedShortAreReadAtOnce() {
        appendTo(rereading, 2);
        TrackingToken end = read(rereading, null).getLast().trackingToken();

        appendTo(rereading, 1);
        assertThat(read(rereading, end)).hasSize(1);
    }

    @Test
    void eventsAppendedInATransactionAreReadAtOnceAfterItCommits() {
        OneQueryPerBatchEventStorageEngine inTransactions = inSpringTransactions();
        String aggregate = UUID.randomUUID().toString();
        TrackingToken end = appendAndReadFirst(inTransactions, aggregate);

        transactions().executeWithoutResult(status -> inTransactions.appendEvents(
                List.of(new GenericDomainEventMessage<>("Test", aggregate, 1, "second"))));

        // the commit was counted before the transaction returned: the read right after asks the store
        assertThat(read(inTransactions, end)).extracting(event -> (Object) event.getPayload()).containsExactly("second");
    }

    @Test
    void aCommitIsCountedOnlyOnceItCompletedNotWhenItsEventsWereAppended() {
        OneQueryPerBatchEventStorageEngine inTransactions = inSpringTransactions();
        String aggregate = UUID.randomUUID().toString();
        TrackingToken end = appendAndReadFirst(inTransactions, aggregate);

        transactions().executeWithoutResult(status -> {
            inTransactions.appendEvents(List.of(new GenericDomainEventMessage<>("Test", aggregate, 1, "second")));
            // a reader reading while the transaction is open sees nothing of it; had the append been
            // counted already, that read would make the one after the commit look like asking again
            assertThat(CompletableFuture.supplyAsync(() -> read(inTransactions, end)).join()).isEmpty();
        });

        assertThat(read(inTransactions, end)).extracting(event -> (Object) event.getPayload()).containsExactly("second");
    }

    /** Appends the aggregate's first event and reads it: where the read ended, short. */
    private static TrackingToken appendAndReadFirst(OneQueryPerBatchEventStorageEngine target, String aggregate) {
        target.appendEvents(List.of(new GenericDomainEventMessage<>("Test", aggregate, 0, "first")));
        return read(target, null).getLast().trackingToken();
    }

    @Test
    void aReadInOrderStartsNoTransactionWhereNoneIsRunningAndAppendsStillDo() {
        AtomicInteger started = new AtomicInteger();
        OneQueryPerBatchEventStorageEngine counted = inSpringTransactions(started);
        String aggregate = UUID.randomUUID().toString();
        counted.appendEvents(List.of(new GenericDomainEventMessage<>("Test", aggregate, 0, "first")));
        assertThat(started.getAndSet(0)).as("the append's").isEqualTo(1);

        assertThat(read(counted, null)).extracting(event -> (Object) event.getPayload()).containsExactly("first");
        assertThat(started.getAndSet(0)).as("the read in order's").isZero();
        assertThat(counted.readEvents(aggregate).asStream().toList()).hasSize(1);
        assertThat(started.get()).as("an aggregate's own events are read in a transaction").isPositive();
    }

    @Test
    void aReadInOrderInsideARunningTransactionTakesPartInIt() {
        OneQueryPerBatchEventStorageEngine inTransactions = inSpringTransactions(new AtomicInteger());
        String aggregate = UUID.randomUUID().toString();
        List<Object> readInside = transactions().execute(status -> {
            inTransactions.appendEvents(List.of(new GenericDomainEventMessage<>("Test", aggregate, 0, "uncommitted")));
            // only the transaction's own connection sees its event before the commit
            return read(inTransactions, null).stream().map(event -> (Object) event.getPayload()).toList();
        });
        assertThat(readInside).containsExactly("uncommitted");
    }

    /** An engine whose connections take part in Spring's transactions, as the service's do. */
    private OneQueryPerBatchEventStorageEngine inSpringTransactions() {
        return inSpringTransactions(new AtomicInteger());
    }

    /** {@link #inSpringTransactions()}, counting the transactions its transaction manager is asked to start. */
    private OneQueryPerBatchEventStorageEngine inSpringTransactions(AtomicInteger started) {
        TransactionManager spring = new SpringTransactionManager(new DataSourceTransactionManager(dataSource));
        TransactionManager counting = () -> {
            started.incrementAndGet();
            return spring.startTransaction();
        };
        return OneQueryPerBatchEventStorageEngine.of(
                builder().connectionProvider(new SpringDataSourceConnectionProvider(dataSource)), counting,
                Duration.ofSeconds(30));
    }

    private TransactionTemplate transactions() {
        return new TransactionTemplate(new DataSourceTransactionManager(dataSource));
    }

    private void append(int count) {
        appendTo(engine, count);
    }

    private void appendTo(JdbcEventStorageEngine target, int count) {
        String aggregate = UUID.randomUUID().toString();
        target.appendEvents(IntStream.range(0, count)
                .mapToObj(i -> new GenericDomainEventMessage<>("Test", aggregate, sequence++, "event " + i))
                .toList());
    }

    /** Stores an event at global index {@code globalIndex}, as a transaction that took that identity would. */
    private void insertAt(long globalIndex) throws SQLException {
        // now: Axon keeps no gaps before an event older than its gap timeout
        insertAt(globalIndex, Instant.now());
    }

    /** As {@link #insertAt(long)}, stored at {@code time}. */
    private void insertAt(long globalIndex, Instant time) throws SQLException {
        EventSchema schema = new AxonStorageConfiguration().eventSchema();
        try (Connection connection = DriverManager.getConnection(url, TestDatabases.USER, TestDatabases.PASSWORD);
             PreparedStatement insert = connection.prepareStatement("INSERT INTO " + schema.domainEventTable()
                     + " (global_index, event_identifier, aggregate_identifier, sequence_number, type, time_stamp,"
                     + " payload_type, payload_revision, payload, meta_data)"
                     + " VALUES (?, ?, ?, 0, 'Test', ?, 'java.lang.String', NULL, '\"x\"', '{}')")) {
            insert.setLong(1, globalIndex);
            insert.setString(2, UUID.randomUUID().toString());
            insert.setString(3, "at-" + globalIndex);
            insert.setString(4, DateTimeUtils.formatInstant(time));
            insert.executeUpdate();
        }
    }

    private static List<TrackedEventMessage<?>> read(JdbcEventStorageEngine engine, TrackingToken from) {
        try (Stream<? extends TrackedEventMessage<?>> events = engine.readEvents(from, false)) {
            return new ArrayList<>(events.toList());
        }
    }

    /** Where {@link #insertAt} stored the event (a token's index is its highest, not a filled gap's). */
    private static String storedAt(TrackedEventMessage<?> event) {
        return ((DomainEventMessage<?>) event).getAggregateIdentifier();
    }

    private static long index(TrackedEventMessage<?> event) {
        return ((GapAwareTrackingToken) event.trackingToken()).getIndex();
    }

    /** Connections whose prepared statements are counted. */
    private ConnectionProvider countingStatements() {
        return () -> {
            Connection connection = DriverManager.getConnection(url, TestDatabases.USER, TestDatabases.PASSWORD);
            return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Connection.class},
                    (proxy, method, arguments) -> {
                        if (method.getName().equals("prepareStatement")) {
                            statements.incrementAndGet();
                        }
                        try {
                            return method.invoke(connection, arguments);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        };
    }
}
