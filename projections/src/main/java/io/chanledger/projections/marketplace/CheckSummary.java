package io.chanledger.projections.marketplace;

/** The health checks of one provider over the last day: how many ran and how many it passed. */
public record CheckSummary(long checks, long passed) {

    public static final CheckSummary NONE = new CheckSummary(0, 0);
}
