package io.chanledger.chain.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.domain.chain.ChainRef;
import io.chanledger.domain.channel.CloseKind;
import io.chanledger.domain.channel.ExpireChannel;
import io.chanledger.domain.channel.OpenChannel;
import io.chanledger.domain.channel.RecordClaim;
import io.chanledger.domain.channel.RecordClose;
import io.chanledger.domain.contract.RecordFeeUpdate;
import io.chanledger.domain.contract.RecordUsdcUpdate;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RangePlannerTest {

    private static final String A = "0x" + "0a".repeat(32);
    private static final String B = "0x" + "0b".repeat(32);
    private static final String CONSUMER = "0x" + "11".repeat(20);
    private static final String PROVIDER = "0x" + "22".repeat(20);
    private static final String FEES = "0x" + "33".repeat(20);
    private static final String CONTRACT = "137:0x" + "44".repeat(20);
    private static final String OLD_TOKEN = "0x" + "55".repeat(20);
    private static final String NEW_TOKEN = "0x" + "66".repeat(20);

    private static ChainRef ref(long block, String tx, int index) {
        return new ChainRef(block, "0xb" + block, tx, index);
    }

    private static ChannelLog.Opened opened(String channel, long expiry, ChainRef ref) {
        return new ChannelLog.Opened(channel, CONSUMER, PROVIDER, BigInteger.valueOf(1_000), BigInteger.valueOf(expiry), ref);
    }

    private static BigInteger n(long value) {
        return BigInteger.valueOf(value);
    }

    @Test
    void pairsEachFeeWithTheClaimOfTheSameTransactionAndChannel() {
        List<ChannelLog> logs = List.of(
                opened(A, 10_000, ref(1, "0x01", 0)),
                opened(B, 10_000, ref(1, "0x02", 1)),
                new ChannelLog.FeePaid(A, FEES, n(8), ref(2, "0x03", 0)),
                new ChannelLog.Claimed(A, PROVIDER, n(400), ref(2, "0x03", 1)),
                new ChannelLog.Claimed(B, PROVIDER, n(3), ref(2, "0x04", 2)));

        RangePlan plan = RangePlanner.plan(CONTRACT, logs, Map.of(1L, 100L, 2L, 102L), Map.of(), 2, 102);

        assertThat(plan.commands(Map.of())).containsExactly(
                new OpenChannel(A, CONSUMER, PROVIDER, n(1_000), 10_000, ref(1, "0x01", 0)),
                new OpenChannel(B, CONSUMER, PROVIDER, n(1_000), 10_000, ref(1, "0x02", 1)),
                new RecordClaim(A, n(400), n(8), ref(2, "0x03", 1)),
                new RecordClaim(B, n(3), BigInteger.ZERO, ref(2, "0x04", 2)));
        assertThat(plan.expiryChanges()).containsExactly(new ExpiryChange.Track(A, 10_000), new ExpiryChange.Track(B, 10_000));
    }

    @Test
    void recordsFeeAndTokenChangesInTheirPlaceAmongTheClaims() {
        List<DecodedLog.Recorded> logs = List.of(
                new ChannelLog.FeePaid(A, FEES, n(8), ref(2, "0x03", 0)),
                new ChannelLog.Claimed(A, PROVIDER, n(400), ref(2, "0x03", 1)),
                new ContractLog.FeeUpdated(FEES, n(500), ref(2, "0x05", 2)),
                new ContractLog.UsdcUpdated(OLD_TOKEN, NEW_TOKEN, ref(3, "0x06", 0)),
                new ChannelLog.FeePaid(A, FEES, n(5), ref(3, "0x07", 1)),
                new ChannelLog.Claimed(A, PROVIDER, n(100), ref(3, "0x07", 2)));

        RangePlan plan = RangePlanner.plan(CONTRACT, logs, Map.of(2L, 102L, 3L, 104L), Map.of(), 3, 104);

        assertThat(plan.commands(Map.of())).containsExactly(
                new RecordClaim(A, n(400), n(8), ref(2, "0x03", 1)),
                new RecordFeeUpdate(CONTRACT, FEES, n(500), ref(2, "0x05", 2)),
                new RecordUsdcUpdate(CONTRACT, OLD_TOKEN, NEW_TOKEN, ref(3, "0x06", 0)),
                new RecordClaim(A, n(100), n(5), ref(3, "0x07", 2)));
        assertThat(plan.recordedLogs()).isEqualTo(6);
    }

    @Test
    void aCloseInTheTransactionOfAClaimIsCooperative() {
        List<ChannelLog> logs = List.of(
                new ChannelLog.FeePaid(A, FEES, n(2), ref(5, "0x09", 0)),
                new ChannelLog.Claimed(A, PROVIDER, n(100), ref(5, "0x09", 1)),
                new ChannelLog.Closed(A, CONSUMER, n(900), ref(5, "0x09", 2)));

        RangePlan plan = RangePlanner.plan(CONTRACT, logs, Map.of(5L, 500L), Map.of(), 5, 500);

        assertThat(plan.transactionsToInspect()).isEmpty();
        assertThat(plan.commands(Map.of())).last()
                .isEqualTo(new RecordClose(A, n(900), CloseKind.COOPERATIVE, ref(5, "0x09", 2)));
    }

    @Test
    void aCloseBeforeExpiryIsCooperativeWithoutAskingTheNode() {
        List<ChannelLog> logs = List.of(new ChannelLog.Closed(A, CONSUMER, n(1_000), ref(5, "0x09", 0)));

        RangePlan plan = RangePlanner.plan(CONTRACT, logs, Map.of(5L, 500L), Map.of(A, 600L), 5, 500);

        assertThat(plan.transactionsToInspect()).isEmpty();
        assertThat(plan.commands(Map.of())).containsExactly(new RecordClose(A, n(1_000), CloseKind.COOPERATIVE, ref(5, "0x09", 0)));
        assertThat(plan.expiryChanges()).containsExactly(new ExpiryChange.Untrack(A));
    }

    @Test
    void aCloseAfterExpiryWithoutClaimWaitsForTheTransactionsSelector() {
        List<ChannelLog> logs = List.of(new ChannelLog.Closed(A, CONSUMER, n(1_000), ref(7, "0x0c", 0)));

        RangePlan plan = RangePlanner.plan(CONTRACT, logs, Map.of(7L, 700L), Map.of(A, 650L), 7, 700);

        assertThat(plan.transactionsToInspect()).containsExactly("0x0c");
        assertThat(plan.commands(Map.of("0x0c", CloseKind.AFTER_EXPIRY))).containsExactly(
                new ExpireChannel(A, 700, 7),
                new RecordClose(A, n(1_000), CloseKind.AFTER_EXPIRY, ref(7, "0x0c", 0)));
    }

    @Test
    void expiresBeforeTheLogsOfTheFirstBlockPastTheExpiry() {
        List<ChannelLog> logs = List.of(
                opened(A, 150, ref(1, "0x01", 0)),
                new ChannelLog.Claimed(A, PROVIDER, n(10), ref(3, "0x02", 0)));

        RangePlan plan = RangePlanner.plan(CONTRACT, logs, Map.of(1L, 100L, 3L, 160L), Map.of(), 9, 300);

        assertThat(plan.commands(Map.of())).containsExactly(
                new OpenChannel(A, CONSUMER, PROVIDER, n(1_000), 150, ref(1, "0x01", 0)),
                new ExpireChannel(A, 160, 3),
                new RecordClaim(A, n(10), BigInteger.ZERO, ref(3, "0x02", 0)));
        assertThat(plan.expiryChanges()).containsExactly(new ExpiryChange.Track(A, 150), new ExpiryChange.Untrack(A));
    }

    @Test
    void aChannelOpenedWithoutDurationExpiresInItsOwnBlock() {
        List<ChannelLog> logs = List.of(opened(A, 100, ref(1, "0x01", 0)));

        RangePlan plan = RangePlanner.plan(CONTRACT, logs, Map.of(1L, 100L), Map.of(), 4, 130);

        assertThat(plan.commands(Map.of())).last().isEqualTo(new ExpireChannel(A, 100, 1));
    }

    @Test
    void expiresWatchedChannelsDueByTheEndOfAnEmptyRangeInExpiryOrder() {
        RangePlan plan = RangePlanner.plan(CONTRACT, List.of(), Map.of(), Map.of(B, 50L, A, 80L), 20, 90);

        assertThat(plan.commands(Map.of())).containsExactly(new ExpireChannel(B, 90, 20), new ExpireChannel(A, 90, 20));
        assertThat(plan.expiryChanges()).containsExactly(new ExpiryChange.Untrack(B), new ExpiryChange.Untrack(A));
    }

    @Test
    void anExpiryBeyondLongRangeNeverComesDue() {
        ChannelLog.Opened forever = new ChannelLog.Opened(A, CONSUMER, PROVIDER, n(1), BigInteger.TWO.pow(255),
                ref(1, "0x01", 0));

        RangePlan plan = RangePlanner.plan(CONTRACT, List.of(forever), Map.of(1L, 100L), Map.of(), 1, 100);

        assertThat(plan.commands(Map.of())).hasSize(1);
        assertThat(plan.expiryChanges()).containsExactly(new ExpiryChange.Track(A, Long.MAX_VALUE));
    }

    @Test
    void cutsBatchesAtBlockBoundariesWithinTheLimitUnlessOneBlockExceedsIt() {
        List<ChannelLog> logs = new java.util.ArrayList<>();
        int[] logsPerBlock = {2, 2, 5, 1, 1};
        for (int block = 0; block < logsPerBlock.length; block++) {
            for (int i = 0; i < logsPerBlock[block]; i++) {
                logs.add(new ChannelLog.Claimed(A, PROVIDER, n(1), ref(block, "0x0" + block, i)));
            }
        }

        List<List<ChannelLog>> batches = RangePlanner.cutAtBlocks(logs, 4);

        assertThat(batches).extracting(List::size).containsExactly(4, 5, 2);
        assertThat(RangePlanner.cutAtBlocks(List.of(), 4)).containsExactly(List.of());
    }
}
