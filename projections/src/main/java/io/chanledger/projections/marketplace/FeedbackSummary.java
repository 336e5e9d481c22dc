package io.chanledger.projections.marketplace;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Agents' reports on one provider over the feedback window: how many, how many successes and
 * failures, and the failures by the reason given (failures without one count in {@code failures}
 * only). Reasons are in alphabetical order, so every instance renders the same bytes.
 */
public record FeedbackSummary(long reports, long successes, long failures, Map<String, Long> failureReasons) {

    public static final FeedbackSummary NONE = new FeedbackSummary(0, 0, 0, Map.of());

    public FeedbackSummary {
        failureReasons = Collections.unmodifiableMap(new TreeMap<>(failureReasons));
    }

    /** Successes over reports, to four decimals; null without reports. */
    public BigDecimal successRate() {
        if (reports == 0) {
            return null;
        }
        return BigDecimal.valueOf(successes).divide(BigDecimal.valueOf(reports), 4, RoundingMode.HALF_EVEN)
                .stripTrailingZeros();
    }

    /** {@code count} reports of {@code outcome}, with {@code reason} for failures that gave one. */
    static FeedbackSummary counted(String outcome, String reason, long count) {
        if ("success".equals(outcome)) {
            return new FeedbackSummary(count, count, 0, Map.of());
        }
        return new FeedbackSummary(count, 0, count, reason == null ? Map.of() : Map.of(reason, count));
    }

    FeedbackSummary plus(FeedbackSummary other) {
        Map<String, Long> reasons = new TreeMap<>(failureReasons);
        other.failureReasons.forEach((reason, count) -> reasons.merge(reason, count, Long::sum));
        return new FeedbackSummary(reports + other.reports, successes + other.successes, failures + other.failures,
                reasons);
    }
}
