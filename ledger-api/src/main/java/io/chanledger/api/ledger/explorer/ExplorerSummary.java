package io.chanledger.api.ledger.explorer;

import io.chanledger.domain.chain.ChainRef;
import io.swagger.v3.oas.annotations.media.Schema;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import org.springframework.lang.Nullable;

/**
 * The network as a block explorer shows it: totals over every channel, the providers that
 * claimed the most and the latest channels opened, claimed and closed. Public on-chain facts
 * only. Addresses EIP-55, amounts base units as decimal strings.
 */
record ExplorerSummary(Totals totals, List<BusyProvider> busiestProviders, List<Activity> recentActivity) {

    @Schema(name = "ExplorerTotals")
    record Totals(
            @Schema(description = "channels the ledger knows, in any status") long channels,
            long openChannels,
            @Schema(description = "past their expiry, not closed yet") long expiredChannels,
            @Schema(description = "deposit − claimed of the channels not closed: what the contract holds for them") BigInteger locked,
            @Schema(description = "claimed over all channels, fees included") BigInteger claimed,
            @Schema(description = "protocol fees paid by claims over all channels") BigInteger feesPaid) {
    }

    record BusyProvider(String provider, long channels, BigInteger claimed, BigInteger feesPaid) {
    }

    /** One channel event from the chain; only the members of its kind are present. */
    record Activity(
            @Schema(allowableValues = {"opened", "claimed", "closed"}) String kind,
            String channelId,
            @Schema(description = "when the ledger recorded it") Instant at,
            @Nullable String consumer,
            @Nullable String provider,
            @Schema(description = "opened: the deposit") @Nullable BigInteger deposit,
            @Schema(description = "opened: the expiry, Unix seconds") @Nullable Long expiryEpochSeconds,
            @Schema(description = "claimed: the gross increment of this claim") @Nullable BigInteger payout,
            @Schema(description = "claimed: the part of the payout that went to the protocol") @Nullable BigInteger fee,
            @Schema(description = "claimed: the channel's claimed total after this claim") @Nullable BigInteger totalClaimed,
            @Schema(description = "closed: what went back to the consumer") @Nullable BigInteger refund,
            @Schema(allowableValues = {"cooperative", "after_expiry"}) @Nullable String closeKind,
            @Schema(description = "null for a channel opened provisionally, before its open log was final") @Nullable ChainRef chainRef) {
    }
}
