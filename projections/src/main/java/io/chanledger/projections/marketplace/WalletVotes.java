package io.chanledger.projections.marketplace;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Verified reports on one provider with each wallet counting once: how many wallets reported, and
 * the sum of each wallet's share of good outcomes (its successes over its reports, or its requests
 * answered over those it reported). A wallet that sends a hundred reports weighs what one that
 * sends one does. Each share is divided to twelve places, half-even, and the shares are added
 * exactly, so every instance gives the same mean whatever order the wallets come in.
 */
public record WalletVotes(long wallets, BigDecimal shareSum) {

    public static final WalletVotes NONE = new WalletVotes(0, BigDecimal.ZERO);
    static final int SCALE = 12;

    /** One wallet's vote: {@code good} of its {@code total} reports ({@code total} above 0). */
    public static WalletVotes of(long good, long total) {
        return new WalletVotes(1, BigDecimal.valueOf(good).divide(BigDecimal.valueOf(total), SCALE,
                RoundingMode.HALF_EVEN));
    }

    public WalletVotes plus(WalletVotes other) {
        return new WalletVotes(wallets + other.wallets, shareSum.add(other.shareSum));
    }

    /** The mean of the wallets' shares, to twelve places; null without wallets. */
    public BigDecimal mean() {
        return wallets == 0 ? null : shareSum.divide(BigDecimal.valueOf(wallets), SCALE, RoundingMode.HALF_EVEN);
    }
}
