package io.chanledger.projections.marketplace;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class FeedbackSummaryTest {

    @Test
    void countsOfEachOutcomeAndReasonAddUp() {
        FeedbackSummary summary = FeedbackSummary.counted("success", null, 5)
                .plus(FeedbackSummary.counted("failure", "timeout", 2))
                .plus(FeedbackSummary.counted("failure", "quality", 1))
                .plus(FeedbackSummary.counted("failure", "timeout", 1))
                .plus(FeedbackSummary.counted("failure", null, 3));

        assertThat(summary.reports()).isEqualTo(12);
        assertThat(summary.successes()).isEqualTo(5);
        assertThat(summary.failures()).isEqualTo(7);
        assertThat(summary.failureReasons()).containsExactly(Map.entry("quality", 1L),
                Map.entry("timeout", 3L));
        assertThat(summary.successRate()).isEqualByComparingTo("0.4167");
    }

    @Test
    void withoutReportsThereIsNoSuccessRate() {
        assertThat(FeedbackSummary.NONE.successRate()).isNull();
        assertThat(FeedbackSummary.counted("success", null, 3).successRate()).hasToString("1");
    }
}
