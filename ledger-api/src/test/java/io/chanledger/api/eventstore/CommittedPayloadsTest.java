package io.chanledger.api.eventstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.domain.channel.ChannelEvent;
import io.chanledger.domain.channel.VoucherAccepted;
import io.chanledger.storage.EventStoreMapper;
import java.lang.reflect.RecordComponent;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingEventStream;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.json.JacksonSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The channel events this process commits reach the read models with the payloads the commit
 * recorded ({@link EventTail#committed}), which must be what parsing the stored JSON would give:
 * every channel event reads back equal, and what a processor sees of an event (payload, token,
 * identifier, aggregate, sequence, time) is the same whether its payload was kept or parsed. The
 * store here is the service's storage engine on PostgreSQL, appending to a table of the test's own.
 */
class CommittedPayloadsTest extends LedgerIntegrationTest {

    private static final String SCHEMA = "committed_payloads_test";
    private static final Duration READER_LOOKS_EVERY = Duration.ofMinutes(1);

    @Autowired
    private JdbcTemplate jdbc;

    @Autowired
    private ConnectionProvider connections;

    @Autowired
    private TransactionManager transactions;

    @Autowired
    private Serializer serializer;

    private LingeringReaderEventStore store;
    private TrackingEventStream stream;

    @AfterEach
    void close() {
        if (stream != null) {
            stream.close();
        }
        if (store != null) {
            store.shutDown();
        }
    }

    @Test
    void everyChannelEventReadsBackEqualFromTheStoresJson() {
        Serializer storesJson = JacksonSerializer.builder().objectMapper(EventStoreMapper.create()).build();
        for (Class<? extends ChannelEvent> type : ChannelEvent.TYPES) {
            Object event = sample(type);
            SerializedObject<String> stored = storesJson.serialize(event, String.class);
            assertThat((Object) storesJson.deserialize(stored)).as(type.getSimpleName()).isEqualTo(event);
        }
    }

    @Test
    void aCommittedEventReachesTheStreamWithItsPayloadAndAnotherInstancesIsParsed() throws Exception {
        EventStorageEngine storage = EventStoreOfItsOwn.storageEngine(jdbc, SCHEMA, connections, transactions,
                serializer);
        jdbc.update("DELETE FROM " + SCHEMA + ".event");
        store = new LingeringReaderEventStore(EmbeddedEventStore.builder().storageEngine(storage), 2_000,
                READER_LOOKS_EVERY, Duration.ZERO);
        stream = store.openStream(null);
        assertThat(stream.hasNextAvailable(500, TimeUnit.MILLISECONDS)).as("the empty table read").isFalse();

        String channel = "0x" + "cd".repeat(32);
        VoucherAccepted ours = new VoucherAccepted(channel, BigInteger.valueOf(1_500_000), BigInteger.ONE,
                "0x" + "11".repeat(65), BigInteger.valueOf(1_500_000), 1_764_400_000L, BigInteger.valueOf(40_000),
                1_764_400_060L, BigInteger.ZERO, "echo");
        DomainEventMessage<VoucherAccepted> committed = new GenericDomainEventMessage<>("Channel", channel, 0, ours);
        DefaultUnitOfWork<?> unitOfWork = DefaultUnitOfWork.startAndGet(null);
        unitOfWork.attachTransaction(transactions);
        store.publish(committed);
        unitOfWork.commit();

        // another instance's event: in the store, and no commit of this process recorded it
        VoucherAccepted theirs = new VoucherAccepted(channel, BigInteger.valueOf(2_000_000), BigInteger.TWO,
                "0x" + "22".repeat(65), BigInteger.valueOf(500_000), 1_764_400_001L);
        DomainEventMessage<VoucherAccepted> appended = new GenericDomainEventMessage<>("Channel", channel, 1, theirs);
        transactions.executeInTransaction(() -> storage.appendEvents(List.of(appended)));
        store.publish(List.<EventMessage<?>>of()); // an ordinary commit's wake-up, with nothing of its own

        List<TrackedEventMessage<?>> read = read(2);
        List<TrackedEventMessage<?>> parsed = new ArrayList<>();
        try (var fromTheStore = storage.readEvents(null, false)) {
            fromTheStore.forEach(parsed::add);
        }
        assertThat(parsed).hasSize(2);

        assertThat(read.get(0).getPayload()).as("the committed payload, not parsed").isSameAs(ours);
        assertThat(read.get(1).getPayload()).as("another instance's, parsed").isEqualTo(theirs).isNotSameAs(theirs);
        for (int i = 0; i < 2; i++) {
            TrackedEventMessage<?> seen = read.get(i);
            TrackedEventMessage<?> stored = parsed.get(i);
            assertThat(seen.getPayload()).isEqualTo(stored.getPayload());
            assertThat((Object) seen.getPayloadType()).isEqualTo(stored.getPayloadType());
            assertThat(seen.trackingToken()).isEqualTo(stored.trackingToken());
            assertThat(seen.getIdentifier()).isEqualTo(stored.getIdentifier());
            assertThat(seen.getTimestamp()).isEqualTo(stored.getTimestamp());
            assertThat(seen.getMetaData()).isEqualTo(stored.getMetaData());
            assertThat(((DomainEventMessage<?>) seen).getAggregateIdentifier()).isEqualTo(channel);
            assertThat(((DomainEventMessage<?>) seen).getSequenceNumber()).isEqualTo(i);
            assertThat(((DomainEventMessage<?>) seen).getType()).isEqualTo("Channel");
        }
    }

    private List<TrackedEventMessage<?>> read(int count) throws InterruptedException {
        List<TrackedEventMessage<?>> events = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            assertThat(stream.hasNextAvailable(10, TimeUnit.SECONDS)).as("event %d read", i + 1).isTrue();
            events.add(stream.nextAvailable());
        }
        return events;
    }

    /** An instance of a record type with a value in every component, none of them a default. */
    private static Object sample(Class<?> type) {
        if (type == String.class) {
            return "0x" + "ab".repeat(32);
        }
        if (type == BigInteger.class) {
            return BigInteger.TWO.pow(200).add(BigInteger.valueOf(7)); // beyond a long and a double's precision
        }
        if (type == long.class || type == Long.class) {
            return 1_764_400_123L;
        }
        if (type == int.class || type == Integer.class) {
            return 123_457;
        }
        if (type == boolean.class || type == Boolean.class) {
            return Boolean.TRUE;
        }
        if (type.isEnum()) {
            Object[] constants = type.getEnumConstants();
            return constants[constants.length - 1];
        }
        if (type.isRecord()) {
            RecordComponent[] components = type.getRecordComponents();
            Class<?>[] types = new Class<?>[components.length];
            Object[] values = new Object[components.length];
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                values[i] = sample(types[i]);
            }
            try {
                return type.getDeclaredConstructor(types).newInstance(values);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(type + ": no canonical constructor", e);
            }
        }
        throw new IllegalArgumentException("no sample value for " + type + ": add one, so that the event is checked");
    }
}
