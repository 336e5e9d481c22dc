package io.chanledger.projections.earnings;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.domain.chain.ChainRef;
import io.chanledger.domain.channel.ChannelClaimed;
import io.chanledger.domain.channel.RequestSettled;
import io.chanledger.domain.channel.VoucherAccepted;
import io.chanledger.projections.readmodel.ReadModelDatabase;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.axonframework.eventhandling.AnnotationEventHandlerAdapter;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** The provider's earnings read model, fed by its handlers called directly, on the service's schema. */
class EarningsProjectionTest {

    private static final String CHANNEL = "0x" + "ab".repeat(32);
    private static final String PROVIDER = "0x" + "12".repeat(20);
    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");

    private JdbcTemplate jdbc;
    private EarningsTable table;
    private EarningsProjection projection;

    @BeforeEach
    void freshDatabase() {
        jdbc = new JdbcTemplate(ReadModelDatabase.create());
        table = new EarningsTable(jdbc);
        projection = new EarningsProjection(table);
    }

    private static VoucherAccepted metered(long nonce, String model) {
        return new VoucherAccepted(CHANNEL, BigInteger.valueOf(100_000 * nonce), BigInteger.valueOf(nonce), "0xsig",
                BigInteger.valueOf(100_000), T0.getEpochSecond(), BigInteger.valueOf(5_000),
                T0.getEpochSecond() + 600, BigInteger.ZERO, model);
    }

    private static RequestSettled settled(long nonce, long charged) {
        return new RequestSettled(CHANNEL, BigInteger.valueOf(nonce), BigInteger.valueOf(charged),
                BigInteger.valueOf(charged), BigInteger.valueOf(charged), T0.getEpochSecond() + 5);
    }

    private List<Map<String, Object>> requests() {
        return jdbc.queryForList("SELECT nonce, model, charged, settled_at FROM earnings_request ORDER BY nonce");
    }

    @Test
    void aPaidRequestKeepsItsModelAndWhatItsSettlementCharged() {
        projection.on(metered(1, "echo-1"));
        projection.on(metered(2, "page-fetch"));
        projection.on(settled(1, 3_750));

        List<Map<String, Object>> rows = requests();
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0)).containsEntry("model", "echo-1");
        assertThat(new BigInteger(rows.get(0).get("charged").toString())).isEqualTo(3_750);
        assertThat(rows.get(0).get("settled_at")).isEqualTo(T0.getEpochSecond() + 5);
        assertThat(rows.get(1)).containsEntry("model", "page-fetch");
        assertThat(rows.get(1).get("settled_at")).as("still running").isNull();
    }

    @Test
    void eventsHandledTwiceChangeNothing() {
        projection.on(metered(1, "echo-1"));
        projection.on(settled(1, 3_750));
        List<Map<String, Object>> once = requests();

        projection.on(metered(1, "echo-1"));
        projection.on(settled(1, 3_750));

        assertThat(requests()).isEqualTo(once);
    }

    @Test
    void plainVouchersAndVouchersWithoutAModelAreNoPaidRequestsOfAModel() {
        projection.on(new VoucherAccepted(CHANNEL, BigInteger.TEN, BigInteger.ONE, "0xsig", BigInteger.TEN,
                T0.getEpochSecond()));
        projection.on(metered(2, null));
        projection.on(settled(2, 1_000));

        assertThat(requests()).isEmpty();
    }

    @Test
    void aClaimIsKeptOnceWithItsChainFacts() {
        ChainRef ref = new ChainRef(42, "0xblock", "0x" + "cd".repeat(32), 3);
        ChannelClaimed claim = new ChannelClaimed(CHANNEL, PROVIDER.toUpperCase().replace("0X", "0x"),
                BigInteger.valueOf(250_000), BigInteger.valueOf(5_000), BigInteger.valueOf(250_000), ref);

        projection.on(claim, T0);
        projection.on(claim, T0);

        assertThat(table.claims(PROVIDER, 10)).containsExactly(new EarningsTable.Claim(CHANNEL,
                BigInteger.valueOf(250_000), BigInteger.valueOf(5_000), BigInteger.valueOf(250_000), ref.txHash(),
                42, T0));
    }

    @Test
    void aResetEmptiesBothTables() {
        projection.on(metered(1, "echo-1"));
        projection.on(new ChannelClaimed(CHANNEL, PROVIDER, BigInteger.ONE, BigInteger.ZERO, BigInteger.ONE,
                new ChainRef(1, "0xb", "0xt", 0)), T0);

        projection.reset();

        assertThat(requests()).isEmpty();
        assertThat(table.claims(PROVIDER, 10)).isEmpty();
    }

    /**
     * A stream with redeliveries, a request settled twice, one settled in a later batch and one with
     * no model, cut into batches of every size: each leaves exactly the rows the events handled one
     * by one leave.
     */
    @Test
    void batchesOfEverySizeLeaveTheRowsOfEventsHandledOneByOne() throws Exception {
        List<Object> stream = List.of(metered(1, "echo-1"), metered(2, "page-fetch"), settled(1, 3_750),
                metered(3, "echo-1"), metered(1, "echo-1"), settled(2, 1_000), settled(2, 1_200), metered(4, null),
                settled(4, 500), new ChannelClaimed(CHANNEL, PROVIDER, BigInteger.valueOf(4_000), BigInteger.valueOf(40),
                        BigInteger.valueOf(4_000), new ChainRef(7, "0xb", "0xt", 0)), settled(1, 3_750),
                settled(3, 2_000), metered(5, "page-fetch"));
        List<EventMessage<?>> messages = new ArrayList<>();
        for (Object event : stream) {
            messages.add(new GenericEventMessage<>(UUID.randomUUID().toString(), event, Map.of(), T0));
        }
        AnnotationEventHandlerAdapter oneByOne = new AnnotationEventHandlerAdapter(projection);
        for (EventMessage<?> message : messages) {
            oneByOne.handle(message);
        }
        List<Map<String, Object>> expected = requests();
        List<EarningsTable.Claim> expectedClaims = table.claims(PROVIDER, 10);
        assertThat(expected).hasSize(4);
        assertThat(new BigInteger(expected.get(1).get("charged").toString())).isEqualTo(1_200);
        assertThat(expected.get(3).get("settled_at")).as("request 5 still running").isNull();

        for (int size = 1; size <= messages.size(); size++) {
            freshDatabase();
            AnnotationEventHandlerAdapter adapter = new AnnotationEventHandlerAdapter(projection);
            for (int from = 0; from < messages.size(); from += size) {
                BatchingUnitOfWork<EventMessage<?>> batch =
                        new BatchingUnitOfWork<>(messages.subList(from, Math.min(messages.size(), from + size)));
                batch.executeWithResult(() -> adapter.handle(batch.getMessage()));
            }
            assertThat(requests()).as("batches of %d", size).isEqualTo(expected);
            assertThat(table.claims(PROVIDER, 10)).as("batches of %d", size).isEqualTo(expectedClaims);
        }
    }
}
