package io.chanledger.api.eventstore;

import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.serialization.Serializer;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * An event store of a test's own: the service's storage engine, with the service's connections and
 * transactions, appending to a table of its own (in a schema of the test's, beside the service's
 * tables), so that a test can record events through the very commit path of the service without
 * its read models or audits ever seeing them.
 */
public final class EventStoreOfItsOwn {

    private EventStoreOfItsOwn() {
    }

    /**
     * An event store appending to {@code schema.event}, created (shaped as the service's event
     * table) if it is not there yet.
     */
    public static EmbeddedEventStore create(JdbcTemplate jdbc, String schema, ConnectionProvider connections,
                                            TransactionManager transactions, Serializer serializer) {
        return EmbeddedEventStore.builder()
                .storageEngine(storageEngine(jdbc, schema, connections, transactions, serializer))
                .build();
    }

    /** The service's storage engine appending to {@code schema.event}, created as {@link #create} creates it. */
    public static EventStorageEngine storageEngine(JdbcTemplate jdbc, String schema, ConnectionProvider connections,
                                                   TransactionManager transactions, Serializer serializer) {
        if (!schema.matches("[a-z_]+")) {
            throw new IllegalArgumentException("a plain schema name: " + schema);
        }
        jdbc.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
        jdbc.execute("CREATE TABLE IF NOT EXISTS " + schema + ".event (LIKE public.domain_event_entry INCLUDING ALL)");
        return OneQueryPerBatchEventStorageEngine.of(JdbcEventStorageEngine.builder()
                .eventSerializer(serializer)
                .snapshotSerializer(serializer)
                .persistenceExceptionResolver(new StorageConflicts())
                .connectionProvider(connections)
                .schema(AxonStorageConfiguration.eventSchemaOf(schema + ".event"))
                .dataType(String.class), transactions);
    }
}
