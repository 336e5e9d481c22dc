package io.chanledger.api.eventstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.domain.chain.ChainRef;
import io.chanledger.domain.channel.AcceptVoucher;
import io.chanledger.domain.channel.ChannelAggregateDefinition;
import io.chanledger.domain.channel.MeteredRequest;
import io.chanledger.domain.channel.OpenChannel;
import io.chanledger.domain.channel.SettleRequest;
import io.chanledger.storage.EventStoreMapper;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.axonframework.commandhandling.CommandBus;
import org.axonframework.commandhandling.CommandResultMessage;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.common.caching.Cache;
import org.axonframework.config.Configuration;
import org.axonframework.config.DefaultConfigurer;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventsourcing.AggregateSnapshotter;
import org.axonframework.eventsourcing.Snapshotter;
import org.axonframework.eventsourcing.eventstore.DomainEventStream;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.json.JacksonSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Snapshots taken from a channel in memory ({@link CommittedStateSnapshots}) are exactly the
 * channel its events rebuild, at the snapshot's sequence number, whatever else the same commit
 * does; a command that is not committed leaves none; a channel read from the store is snapshotted
 * from the store, as Axon does.
 */
class CommittedStateSnapshotsTest {

    private static final String CHANNEL = "0x823da9a7690a95c075e42809132b9efebb72c0f77beca597e756b6033b7c036a";
    private static final String CONSUMER = "0x5315f457a01c71a5d7ee87da126af57e8cdeda47";
    private static final String PROVIDER = "0x888a81f924fee3dd0be6367484caa4e91ad34a3f";
    private static final String SIGNATURE = "0x" + "ab".repeat(65);
    private static final long NOW = 1_700_000_000L;
    private static final int THRESHOLD = 3;

    private static final ObjectMapper JSON = EventStoreMapper.create();
    private final Serializer serializer = JacksonSerializer.builder().objectMapper(EventStoreMapper.create()).build();
    private final Cache cache = new BoundedAggregateCache(100);
    /** Aggregates Axon's snapshotter was asked to rebuild from the store. */
    private final List<String> rebuiltFromStore = new CopyOnWriteArrayList<>();
    private final Snapshotter fromStore = (type, identifier) -> rebuiltFromStore.add(identifier);
    private InMemoryEventStorageEngine storage;
    private Configuration axon;
    private long nonce;

    @BeforeEach
    void start() {
        storage = new InMemoryEventStorageEngine();
        axon = DefaultConfigurer.defaultConfiguration()
                .configureSerializer(c -> serializer)
                .configureEmbeddedEventStore(c -> storage)
                .configureAggregate(ChannelAggregateDefinition.configurer(cache,
                        // written at once on the committing thread, so each test sees it when the command returns
                        c -> new CommittedStateSnapshots(THRESHOLD, serializer, c.eventStore(), Runnable::run, fromStore)))
                .buildConfiguration();
        axon.start();
        send(new OpenChannel(CHANNEL, CONSUMER, PROVIDER, units(10_000_000), NOW + 86_400,
                new ChainRef(1, "0x" + "0".repeat(64), "0x" + "1".repeat(64), 0)));
    }

    @AfterEach
    void stop() {
        axon.shutdown();
    }

    @Test
    void eachSnapshotIsTheChannelItsEventsRebuild() {
        List<Long> snapshotsSeen = new ArrayList<>();
        for (int request = 1; request <= 5; request++) {
            long paid = ++nonce;
            send(new AcceptVoucher(CHANNEL, units(100_000 * paid), units(paid), SIGNATURE, CONSUMER, NOW + paid,
                    new MeteredRequest(units(40_000), NOW + 600, PROVIDER)));
            send(new SettleRequest(CHANNEL, units(paid), units(30_000), NOW + paid));
            latestSnapshot().ifPresent(snapshot -> {
                assertEquals(rebuiltAt(snapshot.getSequenceNumber()), json(snapshot));
                if (snapshotsSeen.isEmpty() || snapshotsSeen.getLast() != snapshot.getSequenceNumber()) {
                    snapshotsSeen.add(snapshot.getSequenceNumber());
                }
            });
        }

        // eleven events (0..10): the channel's third, sixth and ninth
        assertEquals(List.of(2L, 5L, 8L), snapshotsSeen);
        assertTrue(rebuiltFromStore.isEmpty(), "a cached channel is snapshotted from memory");
    }

    @Test
    void laterCommandsOfTheSameCommitDoNotGetIntoTheSnapshot() {
        send(voucher()); // events 0 and 1: the next is the third
        CommandBus commands = axon.commandBus();
        DefaultUnitOfWork<?> commit = DefaultUnitOfWork.startAndGet(null);
        dispatchNested(commands, voucher()); // event 2: the snapshot's
        dispatchNested(commands, voucher()); // event 3, in the same commit
        commit.commit();

        DomainEventMessage<?> snapshot = latestSnapshot().orElseThrow();
        assertEquals(2, snapshot.getSequenceNumber());
        assertEquals(rebuiltAt(2), json(snapshot));
        assertNotEquals(rebuiltAt(3), json(snapshot), "the channel after the later command differs");
    }

    @Test
    void aCommandThatIsNotCommittedLeavesNoSnapshot() {
        send(voucher());
        CommandBus commands = axon.commandBus();
        DefaultUnitOfWork<?> commit = DefaultUnitOfWork.startAndGet(null);
        dispatchNested(commands, voucher()); // event 2 would call for a snapshot
        commit.rollback(new IllegalStateException("the shared commit failed"));

        assertFalse(latestSnapshot().isPresent());
        assertEquals(1, lastSequence(), "the rolled-back event is not stored either");

        // the rollback dropped the channel from the cache: it is read again from its two events,
        // and the next voucher's event, the third counted, is snapshotted: that voucher, not the
        // one rolled back at the same sequence number
        send(voucher());
        DomainEventMessage<?> snapshot = latestSnapshot().orElseThrow();
        assertEquals(2, snapshot.getSequenceNumber());
        assertEquals(rebuiltAt(2), json(snapshot));
        assertEquals("3", json(snapshot).at("/state/highestNonce").asText(), "the voucher sent again, not the one rolled back");
        assertEquals(2, json(snapshot).at("/state/voucherCount").asInt());
        assertTrue(rebuiltFromStore.isEmpty());
    }

    @Test
    void aRejectedCommandRecordsNothingAndCallsForNoSnapshot() {
        send(voucher());
        assertThrows(RuntimeException.class, () -> send(new AcceptVoucher(CHANNEL, units(1), units(++nonce), SIGNATURE,
                "0x0000000000000000000000000000000000000001", NOW)));

        assertEquals(1, lastSequence());
        assertFalse(latestSnapshot().isPresent());
    }

    @Test
    void aChannelReadFromTheStoreIsSnapshottedFromTheStoreAsAxonDoes() {
        send(voucher());
        send(voucher()); // event 2: snapshotted from memory
        send(voucher());
        send(voucher()); // events 3 and 4 since the snapshot
        cache.removeAll();

        send(voucher()); // read from the store: the snapshot and events 3 and 4 (the third counted), then event 5

        assertEquals(List.of(CHANNEL), rebuiltFromStore);
        assertEquals(2, latestSnapshot().orElseThrow().getSequenceNumber());
    }

    private AcceptVoucher voucher() {
        long next = ++nonce;
        return new AcceptVoucher(CHANNEL, units(1_000 * next), units(next), SIGNATURE, CONSUMER, NOW + next);
    }

    private void send(Object command) {
        axon.commandGateway().sendAndWait(command);
    }

    private static void dispatchNested(CommandBus commands, Object command) {
        CompletableFuture<CommandResultMessage<?>> result = new CompletableFuture<>();
        commands.dispatch(GenericCommandMessage.asCommandMessage(command), (message, outcome) -> result.complete(outcome));
        CommandResultMessage<?> outcome = result.getNow(null);
        assertFalse(outcome == null || outcome.isExceptional(), "the command was decided in this thread");
    }

    private Optional<DomainEventMessage<?>> latestSnapshot() {
        return storage.readSnapshot(CHANNEL);
    }

    private long lastSequence() {
        return storage.lastSequenceNumberFor(CHANNEL).orElseThrow();
    }

    private JsonNode json(DomainEventMessage<?> snapshot) {
        return tree(snapshot.serializePayload(serializer, String.class).getData());
    }

    /** The channel its events up to {@code sequence} rebuild, as Axon's snapshotter rebuilds it. */
    private JsonNode rebuiltAt(long sequence) {
        List<? extends DomainEventMessage<?>> events = storage.readEvents(CHANNEL, 0).asStream()
                .filter(event -> event.getSequenceNumber() <= sequence).toList();
        DomainEventMessage<?> rebuilt = new Rebuilder(axon.eventStore()).rebuild(DomainEventStream.of(events.stream()));
        assertEquals(sequence, rebuilt.getSequenceNumber());
        return tree(serializer.serialize(rebuilt.getPayload(), String.class).getData());
    }

    private static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static BigInteger units(long value) {
        return BigInteger.valueOf(value);
    }

    /** Axon's snapshotter, asked for the aggregate a stream of events builds. */
    private static final class Rebuilder extends AggregateSnapshotter {

        private Rebuilder(EventStore eventStore) {
            super(AggregateSnapshotter.builder().eventStore(eventStore)
                    .aggregateFactories(ChannelAggregateDefinition.aggregateFactory()));
        }

        DomainEventMessage<?> rebuild(DomainEventStream events) {
            return createSnapshot(ChannelAggregateDefinition.aggregateFactory().getAggregateType(), CHANNEL, events);
        }
    }
}
