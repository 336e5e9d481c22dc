package io.chanledger.projections.marketplace;

/**
 * This service's own health checks of one provider over the last hour: how many ran, how many it
 * passed, and the 95th percentile of the latency they measured (null when none had one).
 */
public record CheckSummary(long checks, long passed, Long latencyP95Ms) {

    public static final CheckSummary NONE = new CheckSummary(0, 0, null);

    public CheckSummary(long checks, long passed) {
        this(checks, passed, null);
    }
}
