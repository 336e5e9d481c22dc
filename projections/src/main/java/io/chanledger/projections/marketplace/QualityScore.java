package io.chanledger.projections.marketplace;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A provider's quality score, 0 to 1 (docs/api.md, "Quality score"): the weighted mean of the
 * signals that are known, null when none is. Only what this service observed itself and what
 * paying agents reported counts; anonymous reports, which anyone can send in any number, count in
 * no signal.
 *
 * <ul>
 * <li>health, weight 0.40: this service's health checks passed over those run in the last hour;</li>
 * <li>latency, weight 0.10: 1 when the 95th percentile of the latency those checks measured is at
 *     most {@value #FAST_MS} ms, 0 from {@value #SLOW_MS} ms on, linear in between;</li>
 * <li>feedback, weight 0.25: verified feedback (feedback window), each wallet's successes over its
 *     reports, averaged over the wallets;</li>
 * <li>requests, weight 0.25: verified reports of paid requests (telemetry window), each wallet's
 *     requests answered below HTTP 400 over those it reported, averaged over the wallets.</li>
 * </ul>
 *
 * Computed in decimals and rounded half-even to four places, so every instance gives the same
 * figure.
 */
public final class QualityScore {

    static final long FAST_MS = 1_000;
    static final long SLOW_MS = 5_000;
    static final BigDecimal HEALTH_WEIGHT = new BigDecimal("0.40");
    static final BigDecimal LATENCY_WEIGHT = new BigDecimal("0.10");
    static final BigDecimal FEEDBACK_WEIGHT = new BigDecimal("0.25");
    static final BigDecimal REQUESTS_WEIGHT = new BigDecimal("0.25");
    private static final int SCALE = 4;
    private static final int WORKING_SCALE = 12;

    private QualityScore() {
    }

    public static BigDecimal of(CheckSummary checks, WalletVotes feedback, WalletVotes requests) {
        BigDecimal weighted = BigDecimal.ZERO;
        BigDecimal weights = BigDecimal.ZERO;
        if (checks.checks() > 0) {
            weighted = weighted.add(HEALTH_WEIGHT.multiply(ratio(checks.passed(), checks.checks())));
            weights = weights.add(HEALTH_WEIGHT);
        }
        if (checks.latencyP95Ms() != null) {
            weighted = weighted.add(LATENCY_WEIGHT.multiply(latency(checks.latencyP95Ms())));
            weights = weights.add(LATENCY_WEIGHT);
        }
        if (feedback.wallets() > 0) {
            weighted = weighted.add(FEEDBACK_WEIGHT.multiply(feedback.mean()));
            weights = weights.add(FEEDBACK_WEIGHT);
        }
        if (requests.wallets() > 0) {
            weighted = weighted.add(REQUESTS_WEIGHT.multiply(requests.mean()));
            weights = weights.add(REQUESTS_WEIGHT);
        }
        if (weights.signum() == 0) {
            return null;
        }
        BigDecimal score = weighted.divide(weights, SCALE, RoundingMode.HALF_EVEN);
        return score.signum() == 0 ? BigDecimal.ZERO : score.stripTrailingZeros();
    }

    /** 1 up to {@link #FAST_MS}, 0 from {@link #SLOW_MS}, linear in between. */
    static BigDecimal latency(long p95Ms) {
        if (p95Ms <= FAST_MS) {
            return BigDecimal.ONE;
        }
        if (p95Ms >= SLOW_MS) {
            return BigDecimal.ZERO;
        }
        return ratio(SLOW_MS - p95Ms, SLOW_MS - FAST_MS);
    }

    private static BigDecimal ratio(long part, long whole) {
        return BigDecimal.valueOf(part).divide(BigDecimal.valueOf(whole), WORKING_SCALE, RoundingMode.HALF_EVEN);
    }
}
