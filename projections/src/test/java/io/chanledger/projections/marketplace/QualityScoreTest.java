package io.chanledger.projections.marketplace;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QualityScoreTest {

    private static WalletVotes wallets(long[]... goodOfTotal) {
        WalletVotes votes = WalletVotes.NONE;
        for (long[] vote : goodOfTotal) {
            votes = votes.plus(WalletVotes.of(vote[0], vote[1]));
        }
        return votes;
    }

    @Test
    void nothingObservedIsUnknown() {
        assertThat(QualityScore.of(CheckSummary.NONE, WalletVotes.NONE, WalletVotes.NONE)).isNull();
    }

    @Test
    void theScoreIsTheWeightedMeanOfTheSignalsKnown() {
        assertThat(QualityScore.of(new CheckSummary(60, 45), WalletVotes.NONE, WalletVotes.NONE))
                .as("health checks alone").isEqualByComparingTo("0.75");
        // (0.40 × 0.75 + 0.10 × 1) / 0.50
        assertThat(QualityScore.of(new CheckSummary(60, 45, 500L), WalletVotes.NONE, WalletVotes.NONE))
                .as("health checks and their latency").isEqualByComparingTo("0.8");
        assertThat(QualityScore.of(CheckSummary.NONE, wallets(new long[]{3, 4}), WalletVotes.NONE))
                .as("verified feedback alone").isEqualByComparingTo("0.75");
        // (0.40 × 1 + 0.10 × 0.5 + 0.25 × 0.75 + 0.25 × 0.75) / 1
        assertThat(QualityScore.of(new CheckSummary(10, 10, 3_000L), wallets(new long[]{3, 4}),
                wallets(new long[]{1, 2}, new long[]{1, 1}))).isEqualByComparingTo("0.825");
    }

    @Test
    void eachWalletCountsOnceHoweverManyReportsItSent() {
        WalletVotes oneGoodOneBad = wallets(new long[]{1, 1}, new long[]{0, 300});

        assertThat(oneGoodOneBad.wallets()).isEqualTo(2);
        assertThat(oneGoodOneBad.mean()).isEqualByComparingTo("0.5");
        assertThat(QualityScore.of(CheckSummary.NONE, WalletVotes.NONE, oneGoodOneBad)).isEqualByComparingTo("0.5");
    }

    @Test
    void probeLatencyCountsFullUpToOneSecondAndNothingFromFiveOn() {
        assertThat(QualityScore.latency(1_000)).isEqualByComparingTo("1");
        assertThat(QualityScore.latency(3_000)).isEqualByComparingTo("0.5");
        assertThat(QualityScore.latency(5_000)).isEqualByComparingTo("0");
        // every check passed (0.40), latency 0 (0.10): 0.40 / 0.50
        assertThat(QualityScore.of(new CheckSummary(3, 3, 60_000L), WalletVotes.NONE, WalletVotes.NONE))
                .isEqualByComparingTo("0.8");
    }

    @Test
    void theScoreHasFourDecimalsRoundedHalfEven() {
        assertThat(QualityScore.of(CheckSummary.NONE, wallets(new long[]{2, 3}), WalletVotes.NONE))
                .isEqualTo("0.6667");
    }
}
