package io.chanledger.projections.marketplace;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What agents' clients reported of their paid requests to one provider over the telemetry window:
 * how many, how many failed (HTTP status 400 or above, or no HTTP answer at all) and with which
 * status ({@code failuresWithoutStatus}: no answer), the latency agents observed (median and 95th
 * percentile, null without requests) and the paid volume in USDC base units. Statuses are in
 * ascending order, so every instance renders the same bytes.
 */
public record TelemetrySummary(long requests, long failures, Map<Integer, Long> failuresByStatus,
                               long failuresWithoutStatus, Long latencyP50Ms, Long latencyP95Ms,
                               BigInteger paidVolume) {

    public static final TelemetrySummary NONE = new TelemetrySummary(0, 0, Map.of(), 0, null, null, BigInteger.ZERO);

    public TelemetrySummary {
        failuresByStatus = Collections.unmodifiableMap(new TreeMap<>(failuresByStatus));
        paidVolume = paidVolume == null ? BigInteger.ZERO : paidVolume;
    }

    /** Failures over requests, to four decimals; null without requests. */
    public BigDecimal failureRate() {
        if (requests == 0) {
            return null;
        }
        return BigDecimal.valueOf(failures).divide(BigDecimal.valueOf(requests), 4, RoundingMode.HALF_EVEN)
                .stripTrailingZeros();
    }

    TelemetrySummary withFailures(Map<Integer, Long> byStatus) {
        return new TelemetrySummary(requests, failures, byStatus, failuresWithoutStatus, latencyP50Ms, latencyP95Ms,
                paidVolume);
    }
}
