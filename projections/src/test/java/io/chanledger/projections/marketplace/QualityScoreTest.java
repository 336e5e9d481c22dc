package io.chanledger.projections.marketplace;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QualityScoreTest {

    private static TelemetrySummary telemetry(long requests, long failures, long p95) {
        return new TelemetrySummary(requests, failures, Map.of(), p95, p95, BigInteger.ZERO);
    }

    @Test
    void nothingObservedIsUnknown() {
        assertThat(QualityScore.of(FeedbackSummary.NONE, TelemetrySummary.NONE, CheckSummary.NONE)).isNull();
    }

    @Test
    void theScoreIsTheWeightedMeanOfTheSignalsKnown() {
        FeedbackSummary feedback = new FeedbackSummary(4, 3, 1, Map.of());

        assertThat(QualityScore.of(feedback, TelemetrySummary.NONE, CheckSummary.NONE))
                .as("feedback alone").isEqualByComparingTo("0.75");
        assertThat(QualityScore.of(FeedbackSummary.NONE, TelemetrySummary.NONE, new CheckSummary(60, 45)))
                .as("health checks alone").isEqualByComparingTo("0.75");
        // (0.35 × 0.75 + 0.30 × 0.5 + 0.10 × 1 + 0.25 × 1) / 1
        assertThat(QualityScore.of(feedback, telemetry(10, 5, 1_500), new CheckSummary(10, 10)))
                .isEqualByComparingTo("0.7625");
    }

    @Test
    void latencyCountsFullUpToTwoSecondsAndNothingFromTwentyOn() {
        assertThat(QualityScore.latency(2_000)).isEqualByComparingTo("1");
        assertThat(QualityScore.latency(11_000)).isEqualByComparingTo("0.5");
        assertThat(QualityScore.latency(20_000)).isEqualByComparingTo("0");
        // requests all fine (0.30), latency 0 (0.10): 0.30 / 0.40
        assertThat(QualityScore.of(FeedbackSummary.NONE, telemetry(3, 0, 60_000), CheckSummary.NONE))
                .isEqualByComparingTo("0.75");
    }

    @Test
    void theScoreHasFourDecimalsRoundedHalfEven() {
        assertThat(QualityScore.of(new FeedbackSummary(3, 2, 1, Map.of()), TelemetrySummary.NONE, CheckSummary.NONE))
                .isEqualTo("0.6667");
    }
}
