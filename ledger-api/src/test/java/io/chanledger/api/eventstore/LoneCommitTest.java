package io.chanledger.api.eventstore;

import io.chanledger.api.config.RoleMigrations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chanledger.api.support.TestDatabases;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.serialization.json.JacksonSerializer;
import org.axonframework.spring.jdbc.SpringDataSourceConnectionProvider;
import org.axonframework.spring.messaging.unitofwork.SpringTransactionManager;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * A command's events committed alone ({@link LoneCommit}), on PostgreSQL with the service's
 * migrations and storage engine: one statement writes the events and the rows kept beside them,
 * with no transaction around it, and commits all of it or none of it.
 */
class LoneCommitTest {

    /** A row kept beside the events, as the gateway keeps a paid answer beside its settlement. */
    private static final String KEPT = "INSERT INTO kept_beside (id, note) VALUES (?, ?)";

    private final String url = TestDatabases.recreate("lone_commit");
    private final DriverManagerDataSource dataSource =
            new DriverManagerDataSource(url, TestDatabases.USER, TestDatabases.PASSWORD);
    private final JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    /** The statements prepared and the commits asked for on the engine's connections. */
    private final AtomicInteger statements = new AtomicInteger();
    private final AtomicInteger commits = new AtomicInteger();
    /** The transactions the engine's transaction manager started. */
    private final AtomicInteger transactionsStarted = new AtomicInteger();
    private OneQueryPerBatchEventStorageEngine engine;

    @BeforeEach
    void migrate() {
        Flyway.configure().dataSource(dataSource).locations(RoleMigrations.CORE).load().migrate();
        jdbc.execute("CREATE TABLE kept_beside (id VARCHAR PRIMARY KEY, note VARCHAR NOT NULL)");
        DataSource counted = counting(dataSource);
        TransactionManager spring = new SpringTransactionManager(new DataSourceTransactionManager(counted));
        TransactionManager startsCounted = () -> {
            transactionsStarted.incrementAndGet();
            return spring.startTransaction();
        };
        JacksonSerializer serializer = JacksonSerializer.defaultSerializer();
        engine = OneQueryPerBatchEventStorageEngine.of(JdbcEventStorageEngine.builder()
                .eventSerializer(serializer)
                .snapshotSerializer(serializer)
                .persistenceExceptionResolver(new StorageConflicts())
                .connectionProvider(new SpringDataSourceConnectionProvider(counted))
                .schema(new AxonStorageConfiguration().eventSchema())
                .dataType(String.class), LoneCommit.startingNoneWhileOpen(startsCounted));
    }

    @Test
    void eventsAndTheRowsKeptBesideThemAreOneStatementThatCommitsByItself() {
        String aggregate = UUID.randomUUID().toString();

        LoneCommit.run(() -> {
            assertThat(LoneCommit.writeBesideEvents(KEPT, "answer", "kept with its charge")).isTrue();
            engine.appendEvents(List.of(event(aggregate, 0), event(aggregate, 1)));
            return null;
        });

        assertThat(statements.get()).isEqualTo(1);
        assertThat(transactionsStarted.get()).isZero();
        assertThat(commits.get()).as("commits asked for: the statement committed by itself").isZero();
        // seen from another session: committed
        assertThat(sequencesOf(aggregate)).containsExactly(0L, 1L);
        assertThat(jdbc.queryForList("SELECT note FROM kept_beside WHERE id = 'answer'", String.class))
                .containsExactly("kept with its charge");
    }

    @Test
    void eventsThatLoseARaceLeaveNothingOfTheStatementBehind() {
        String contested = UUID.randomUUID().toString();
        String other = UUID.randomUUID().toString();
        engine.appendEvents(List.of(event(contested, 0))); // another instance's write, first

        assertThatThrownBy(() -> LoneCommit.run(() -> {
            LoneCommit.writeBesideEvents(KEPT, "lost", "an answer whose charge lost the race");
            engine.appendEvents(List.of(event(other, 0), event(contested, 0)));
            return null;
        })).matches(StorageConflicts::isConflict, "a conflict, to be decided again on fresh state");

        assertThat(sequencesOf(contested)).containsExactly(0L);
        assertThat(sequencesOf(other)).as("the other event of the same statement").isEmpty();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM kept_beside", Integer.class)).isZero();
    }

    @Test
    void aRowKeptBesideNoEventIsNotTakenAsKept() {
        assertThatThrownBy(() -> LoneCommit.run(() -> LoneCommit.writeBesideEvents(KEPT, "orphan", "no charge")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("recorded no event");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM kept_beside", Integer.class)).isZero();
        assertThat(LoneCommit.writeBesideEvents(KEPT, "after", "no lone commit open")).as("closed").isFalse();
    }

    @Test
    void outsideALoneCommitAppendsAreAxonsOwnInATransaction() {
        String aggregate = UUID.randomUUID().toString();
        assertThat(LoneCommit.writeBesideEvents(KEPT, "nowhere", "not kept")).isFalse();

        engine.appendEvents(List.of(event(aggregate, 0)));

        assertThat(transactionsStarted.get()).isEqualTo(1);
        assertThat(commits.get()).isEqualTo(1);
        assertThat(sequencesOf(aggregate)).containsExactly(0L);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM kept_beside", Integer.class)).isZero();
    }

    private static GenericDomainEventMessage<String> event(String aggregate, long sequence) {
        return new GenericDomainEventMessage<>("Test", aggregate, sequence, "event " + sequence);
    }

    private List<Long> sequencesOf(String aggregate) {
        return jdbc.queryForList("SELECT sequence_number FROM domain_event_entry WHERE aggregate_identifier = ?"
                + " ORDER BY sequence_number", Long.class, aggregate);
    }

    /**
     * The service's connections, as a pool hands them out (in autocommit), with the statements
     * prepared and the commits asked for on them counted, whoever asks: the engine or Spring's
     * transactions.
     */
    private DataSource counting(DataSource connections) {
        return new DelegatingDataSource(connections) {
            @Override
            public Connection getConnection() throws SQLException {
                Connection connection = super.getConnection();
                return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
                        new Class<?>[]{Connection.class}, (proxy, method, arguments) -> {
                            if (method.getName().equals("prepareStatement")) {
                                statements.incrementAndGet();
                            } else if (method.getName().equals("commit")) {
                                commits.incrementAndGet();
                            }
                            try {
                                return method.invoke(connection, arguments);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
            }
        };
    }
}
