package io.chanledger.api.provider.watchtower;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.domain.channel.ChannelOpened;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.CloseAuthorized;
import io.chanledger.domain.channel.UnprovenCloses;
import io.chanledger.domain.channel.RequestSettled;
import io.chanledger.domain.channel.VoucherAccepted;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which voucher the watchtower claims with, and when. */
class ClaimPlannerTest {

    private static final String CHANNEL = "0x" + "11".repeat(32);
    private static final long EXPIRY = 1_800_000_000L;
    private static final long LONG_BEFORE = EXPIRY - 86_400;
    private static final long WITHIN_MARGIN = EXPIRY - 600;
    /** A channel of a day: its margin is the longest, an hour. */
    private static final long OPENED = EXPIRY - 86_400;
    private static final ExpiryMargin MARGIN = new ExpiryMargin(10, 60, 3_600);
    private final ClaimPlanner planner = new ClaimPlanner(BigInteger.valueOf(1_000_000), MARGIN);

    private final List<Object> history = new ArrayList<>(List.of(new ChannelOpened(CHANNEL, "0x" + "aa".repeat(20),
            "0x" + "bb".repeat(20), BigInteger.valueOf(10_000_000), EXPIRY, null, true, BigInteger.ZERO)));

    private void paid(long amount, long nonce, long cost, long totalAfter) {
        history.add(new VoucherAccepted(CHANNEL, BigInteger.valueOf(amount), BigInteger.valueOf(nonce), "0xsig" + nonce,
                BigInteger.ZERO, 0, BigInteger.valueOf(cost), 600L, BigInteger.valueOf(totalAfter - cost)));
        history.add(new RequestSettled(CHANNEL, BigInteger.valueOf(nonce), BigInteger.valueOf(cost),
                BigInteger.valueOf(cost), BigInteger.valueOf(totalAfter), 0));
    }

    private java.util.Optional<ClaimPlanner.Plan> plan(long chainTime) {
        return plan(OPENED, chainTime);
    }

    private java.util.Optional<ClaimPlanner.Plan> plan(Long openedAt, long chainTime) {
        return planner.plan(ChannelState.replay(history),
                history.stream().filter(VoucherAccepted.class::isInstance).map(VoucherAccepted.class::cast).toList(),
                UnprovenCloses.of(history).floor(), openedAt, chainTime);
    }

    private void unprovenCloseAt(long finalAmount) {
        history.add(new CloseAuthorized(CHANNEL, BigInteger.valueOf(finalAmount), "0xclose", false));
    }

    /**
     * Vouchers as real clients sign them: each adds an estimate far above the request's cost, so
     * the latest voucher runs ahead of the charged total by the buffer of every request so far.
     */
    private long payWithBuffer(int requests, long cost, long estimate, long nonce, long amount, long total) {
        for (int i = 0; i < requests; i++) {
            amount += estimate;
            total += cost;
            paid(amount, nonce++, cost, total);
        }
        return total;
    }

    @Test
    void anUnprovenCloseAloneIsNeverClaimed() {
        long total = payWithBuffer(5, 300, 9_000, 1, 0, 0);
        unprovenCloseAt(total);

        assertThat(plan(LONG_BEFORE)).as("a stranger's close costs the provider no transaction").isEmpty();
    }

    /**
     * The gateway serves one request above an unproven close and then waits for the claim: the
     * first base unit charged above it calls for the claim, with a voucher not above what was
     * charged when one lies above the authorization.
     */
    @Test
    void theFirstChargeAboveAnUnprovenCloseIsClaimedAtOnceWithoutOverpaying() {
        long total = payWithBuffer(2, 300, 9_000, 1, 0, 0);
        unprovenCloseAt(total);
        paid(total + 1, 3, 1, total + 1);

        ClaimPlanner.Plan plan = plan(LONG_BEFORE).orElseThrow();

        assertThat(plan.reason()).isEqualTo(ClaimPlanner.Reason.CLOSE_GUARD);
        assertThat(plan.amount()).as("above the authorization, not above what was charged")
                .isEqualTo(BigInteger.valueOf(total + 1));
    }

    @Test
    void aboveAnUnprovenCloseTheHighestVoucherWithinTheChargedTotalIsClaimed() {
        long total = payWithBuffer(2, 300, 9_000, 1, 0, 0);
        unprovenCloseAt(total);
        long after = payWithBuffer(3, 20_000, 21_000, 3, 18_000, total);

        ClaimPlanner.Plan plan = plan(LONG_BEFORE).orElseThrow();

        assertThat(plan.reason()).isEqualTo(ClaimPlanner.Reason.CLOSE_GUARD);
        assertThat(plan.amount()).isEqualTo(BigInteger.valueOf(18_000 + 2 * 21_000))
                .isGreaterThan(BigInteger.valueOf(total)).isLessThanOrEqualTo(BigInteger.valueOf(after));
    }

    /**
     * A voucher's amount runs ahead of the charged total by at most the client's estimates; only
     * when one estimate alone is above what one request was charged (here the whole budget signed
     * at once) does no voucher lie between the authorization and the charged total.
     */
    @Test
    void withNoVoucherWithinTheChargedTotalTheSmallestAboveTheCloseIsClaimed() {
        paid(500_000, 1, 300, 300);
        unprovenCloseAt(300);
        paid(500_000, 2, 30_000, 30_300);
        paid(500_000, 3, 30_000, 60_300);

        ClaimPlanner.Plan plan = plan(LONG_BEFORE).orElseThrow();

        assertThat(plan.reason()).isEqualTo(ClaimPlanner.Reason.CLOSE_GUARD);
        assertThat(plan.amount()).isEqualTo(BigInteger.valueOf(500_000));
    }

    @Test
    void nothingIsClaimedBelowTheThresholdWhileTheExpiryIsFar() {
        paid(600_000, 1, 400_000, 400_000);
        assertThat(plan(LONG_BEFORE)).isEmpty();
    }

    @Test
    void pastTheThresholdTheHighestVoucherNotAboveWhatWasChargedIsClaimed() {
        paid(700_000, 1, 500_000, 500_000);
        paid(1_300_000, 2, 600_000, 1_100_000);
        paid(1_800_000, 3, 600_000, 1_700_000);

        ClaimPlanner.Plan plan = plan(LONG_BEFORE).orElseThrow();

        assertThat(plan.amount()).isEqualTo(BigInteger.valueOf(1_300_000));
        assertThat(plan.nonce()).isEqualTo(BigInteger.valueOf(2));
        assertThat(plan.signature()).isEqualTo("0xsig2");
        assertThat(plan.reason()).isEqualTo(ClaimPlanner.Reason.THRESHOLD);
    }

    @Test
    void withinTheMarginTheSmallestVoucherCoveringEverythingChargedIsClaimed() {
        paid(700_000, 1, 500_000, 500_000);
        paid(1_300_000, 2, 600_000, 1_100_000);
        paid(1_800_000, 3, 300_000, 1_400_000);

        ClaimPlanner.Plan plan = plan(WITHIN_MARGIN).orElseThrow();

        assertThat(plan.amount()).isEqualTo(BigInteger.valueOf(1_800_000));
        assertThat(plan.reason()).isEqualTo(ClaimPlanner.Reason.EXPIRY);
    }

    @Test
    void afterExpiryTheChannelIsStillClaimed() {
        paid(100_000, 1, 50_000, 50_000);
        assertThat(plan(EXPIRY + 10)).isPresent();
    }

    @Test
    void nothingIsClaimedOnceTheClaimsCoverWhatWasCharged() {
        paid(700_000, 1, 500_000, 500_000);
        history.add(new io.chanledger.domain.channel.ChannelClaimed(CHANNEL, "0x" + "bb".repeat(20),
                BigInteger.valueOf(700_000), BigInteger.valueOf(14_000), BigInteger.valueOf(700_000), null));
        assertThat(plan(WITHIN_MARGIN)).isEmpty();
    }

    @Test
    void aChannelOfPlainVouchersIsClaimedWithItsHighest() {
        history.add(new VoucherAccepted(CHANNEL, BigInteger.valueOf(400_000), BigInteger.ONE, "0xa", BigInteger.ZERO, 0));
        history.add(new VoucherAccepted(CHANNEL, BigInteger.valueOf(900_000), BigInteger.TWO, "0xb", BigInteger.ZERO, 0));

        assertThat(plan(WITHIN_MARGIN).orElseThrow().amount()).isEqualTo(BigInteger.valueOf(900_000));
        assertThat(plan(LONG_BEFORE)).isEmpty();
    }

    @Test
    void theReadModelPrefilterLetsThroughWhatMayBeDue() {
        assertThat(planner.mayBeDue(EXPIRY, BigInteger.valueOf(10), BigInteger.ZERO, WITHIN_MARGIN)).isTrue();
        assertThat(planner.mayBeDue(EXPIRY, BigInteger.valueOf(2_000_000), BigInteger.ZERO, LONG_BEFORE)).isTrue();
        assertThat(planner.mayBeDue(EXPIRY, BigInteger.valueOf(10), BigInteger.ZERO, LONG_BEFORE)).isFalse();
    }

    /** The margin is a tenth of the channel's life, at least a minute, at most an hour. */
    @Test
    void theMarginFitsTheChannelsLife() {
        assertThat(MARGIN.seconds(EXPIRY, EXPIRY - 120)).as("2 min").isEqualTo(60);
        assertThat(MARGIN.seconds(EXPIRY, EXPIRY - 600)).as("10 min").isEqualTo(60);
        assertThat(MARGIN.seconds(EXPIRY, EXPIRY - 3_600)).as("1 h").isEqualTo(360);
        assertThat(MARGIN.seconds(EXPIRY, EXPIRY - 86_400)).as("1 day").isEqualTo(3_600);
        assertThat(MARGIN.seconds(EXPIRY, null)).as("open block not known yet").isEqualTo(60);
        assertThat(new ExpiryMargin(10, 120, 60).seconds(EXPIRY, EXPIRY - 86_400)).as("the floor wins").isEqualTo(120);
    }

    @Test
    void aShortChannelIsClaimedForExpiryOnlyWithinItsOwnMargin() {
        paid(100_000, 1, 50_000, 50_000);
        long opened = EXPIRY - 600;

        assertThat(plan(opened, EXPIRY - 61)).as("ten minutes, a minute and a second before the end").isEmpty();
        assertThat(plan(opened, EXPIRY - 60).orElseThrow().reason()).isEqualTo(ClaimPlanner.Reason.EXPIRY);
    }
}
