package io.chanledger.api.provider.watchtower;

import io.chanledger.api.provider.gateway.GatewayProperties;

/**
 * How long before its expiry (on the chain's clock) a channel is claimed whatever it earned: a
 * share of the channel's life ({@code percent} of expiry less the time of its open block), never
 * less than {@code floorSeconds} (what a claim needs to land: a round of the watchtower, the
 * chain's confirmation and a retry) nor more than {@code ceilingSeconds}. A long margin would
 * claim a short channel at once, with the consumer's buffered voucher, and then give the excess
 * back after its cooperative close: two transactions for a channel that needed none.
 */
record ExpiryMargin(long percent, long floorSeconds, long ceilingSeconds) {

    static ExpiryMargin of(WatchtowerProperties settings) {
        return new ExpiryMargin(settings.expiryMarginPercent(), settings.expiryMarginMin().toSeconds(),
                settings.expiryMargin().toSeconds());
    }

    /**
     * The margin of a channel expiring at {@code expiry} that was opened at {@code openedAt} (chain
     * seconds); null when its open block is not known yet (a channel known from the contract before
     * its log is final): the floor. The floor wins over the ceiling.
     */
    long seconds(long expiry, Long openedAt) {
        long share = openedAt == null ? 0 : Math.max(0, expiry - openedAt) * percent / 100;
        return Math.max(floorSeconds, Math.min(share, ceilingSeconds));
    }

    /** The longest margin of any channel. */
    long longest() {
        return Math.max(floorSeconds, ceilingSeconds);
    }
}
