package io.chanledger.domain.channel;

import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.domain.chain.ChainRef;
import io.chanledger.storage.EventStoreMapper;
import java.math.BigInteger;
import org.axonframework.common.caching.NoCache;
import org.axonframework.config.DefaultConfigurer;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.axonframework.eventsourcing.eventstore.jpa.SnapshotEventEntry;
import org.axonframework.eventsourcing.snapshotting.SnapshotFilter;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.json.JacksonSerializer;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.hamcrest.FeatureMatcher;
import org.junit.jupiter.api.Test;

/**
 * A channel read back from a snapshot (written field by field as JSON, as the application's event
 * store writes snapshots) keeps its metering state: the charged total and the running holds.
 */
class ChannelSnapshotTest {

    private static final String CHANNEL = "0x823da9a7690a95c075e42809132b9efebb72c0f77beca597e756b6033b7c036a";
    private static final String CONSUMER = "0x5315f457a01c71a5d7ee87da126af57e8cdeda47";
    private static final String PROVIDER = "0x888a81f924fee3dd0be6367484caa4e91ad34a3f";
    private static final long NOW = 1_700_000_000L;
    private static final String SIG = "0x" + "ab".repeat(65);

    private static final ObjectMapper SNAPSHOTS = EventStoreMapper.create();

    private static BigInteger units(long value) {
        return BigInteger.valueOf(value);
    }

    @Test
    void theChargedTotalAndTheRunningHoldsSurviveASnapshot() throws Exception {
        ChannelAggregate channel = new ChannelAggregate();
        channel.on(new ChannelOpened(CHANNEL, CONSUMER, PROVIDER, units(10_000_000), NOW + 86_400,
                new ChainRef(1, "0x" + "0".repeat(64), "0x" + "1".repeat(64), 0), false, BigInteger.ZERO));
        channel.on(new VoucherAccepted(CHANNEL, units(100_000), units(1), SIG, units(100_000), NOW, units(40_000),
                NOW + 600, units(0)));
        channel.on(new RequestSettled(CHANNEL, units(1), units(30_000), units(30_000), units(30_000), NOW + 1));
        channel.on(new VoucherAccepted(CHANNEL, units(100_000), units(2), SIG, units(0), NOW + 2, units(50_000),
                NOW + 600, units(30_000)));

        ChannelAggregate restored = SNAPSHOTS.readValue(SNAPSHOTS.writeValueAsString(channel), ChannelAggregate.class);

        // needs 30,000 charged + 50,000 held + 40,000 for this request: 120,000 (without the charged
        // total or the hold, the highest voucher's 100,000 would do)
        new AggregateTestFixture<>(ChannelAggregate.class)
                .givenState(() -> restored)
                .when(new AcceptVoucher(CHANNEL, units(119_999), units(3), SIG, CONSUMER, NOW + 3,
                        new MeteredRequest(units(40_000), NOW + 600, PROVIDER)))
                .expectException(allOf(
                        feature("reason", VoucherRejectedException::reason, VoucherRejection.INSUFFICIENT_FUNDS),
                        feature("required", VoucherRejectedException::required, units(120_000))));
    }

    /**
     * A channel paid through the gateway keeps none of its vouchers for re-sending (they are
     * never answered twice), so its snapshot, and the aggregate in memory, do not grow with them;
     * plain vouchers are remembered, and a re-sent one is answered from the snapshot too.
     */
    @Test
    void onlyPlainVouchersAreRememberedForReSending() throws Exception {
        ChannelAggregate channel = new ChannelAggregate();
        channel.on(new ChannelOpened(CHANNEL, CONSUMER, PROVIDER, units(10_000_000), NOW + 86_400,
                new ChainRef(1, "0x" + "0".repeat(64), "0x" + "1".repeat(64), 0), false, BigInteger.ZERO));
        for (int nonce = 1; nonce <= 3; nonce++) {
            channel.on(new VoucherAccepted(CHANNEL, units(100_000L * nonce), units(nonce), SIG, units(100_000), NOW,
                    units(40_000), NOW + 600, units(0)));
            channel.on(new RequestSettled(CHANNEL, units(nonce), units(30_000), units(30_000), units(30_000L * nonce),
                    NOW + 1));
        }
        assertEquals(0, SNAPSHOTS.readTree(SNAPSHOTS.writeValueAsString(channel)).get("recentVouchers").size());

        channel.on(new VoucherAccepted(CHANNEL, units(400_000), units(4), SIG, units(100_000), NOW + 2));
        ChannelAggregate restored = SNAPSHOTS.readValue(SNAPSHOTS.writeValueAsString(channel), ChannelAggregate.class);
        assertEquals(1, SNAPSHOTS.readTree(SNAPSHOTS.writeValueAsString(restored)).get("recentVouchers").size());
        new AggregateTestFixture<>(ChannelAggregate.class)
                .givenState(() -> restored)
                .when(new AcceptVoucher(CHANNEL, units(400_000), units(4), SIG, CONSUMER, NOW + 3))
                .expectNoEvents()
                .expectResultMessagePayload(new VoucherReceipt(CHANNEL, units(400_000), units(4), units(100_000),
                        units(10_000_000), units(9_600_000), ChannelStatus.OPEN, true));
    }

    /**
     * A snapshot of the aggregate's earlier shape (no revision) is not read: the channel is built
     * from its events instead, since the old fields would not fill the current ones.
     */
    @Test
    void aSnapshotOfAnEarlierRevisionIsPassedOver() {
        Serializer serializer = JacksonSerializer.builder().objectMapper(SNAPSHOTS).build();
        SnapshotFilter filter = DefaultConfigurer.defaultConfiguration()
                .configureSerializer(c -> serializer)
                .configureEmbeddedEventStore(c -> new InMemoryEventStorageEngine())
                .configureAggregate(ChannelAggregateDefinition.configurer(NoCache.INSTANCE, 100))
                .buildConfiguration()
                .snapshotFilter();
        ChannelAggregate current = new ChannelAggregate();

        assertTrue(filter.allow(snapshot(current, serializer)));
        assertFalse(filter.allow(snapshot(java.util.Map.of("channelId", CHANNEL), serializer)));
    }

    private static SnapshotEventEntry snapshot(Object payload, Serializer serializer) {
        return new SnapshotEventEntry(new GenericDomainEventMessage<>(ChannelAggregate.class.getSimpleName(),
                CHANNEL, 7, payload), serializer);
    }

    private static <T> FeatureMatcher<Object, T> feature(String name,
                                                         java.util.function.Function<VoucherRejectedException, T> read,
                                                         T expected) {
        return new FeatureMatcher<>(equalTo(expected), name, name) {
            @Override
            protected T featureValueOf(Object actual) {
                return actual instanceof VoucherRejectedException e ? read.apply(e) : null;
            }
        };
    }
}
