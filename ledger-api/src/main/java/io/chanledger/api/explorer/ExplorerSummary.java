package io.chanledger.api.explorer;

import static io.swagger.v3.oas.annotations.media.Schema.RequiredMode.REQUIRED;

import io.chanledger.domain.chain.ChainRef;
import io.swagger.v3.oas.annotations.media.Schema;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;

/**
 * The network as a block explorer shows it: totals over every channel, the providers that
 * claimed the most and the latest channels opened, claimed and closed. Public on-chain facts
 * only. Addresses EIP-55, amounts base units as decimal strings.
 */
record ExplorerSummary(@Schema(requiredMode = REQUIRED) Totals totals,
                       @Schema(requiredMode = REQUIRED) List<BusyProvider> busiestProviders,
                       @Schema(requiredMode = REQUIRED) List<Activity> recentActivity) {

    @Schema(name = "ExplorerTotals")
    record Totals(
            @Schema(requiredMode = REQUIRED, description = "channels the ledger knows, in any status") long channels,
            @Schema(requiredMode = REQUIRED) long openChannels,
            @Schema(requiredMode = REQUIRED, description = "past their expiry, not closed yet") long expiredChannels,
            @Schema(requiredMode = REQUIRED, description = "deposit − claimed of the channels not closed: what the contract holds for them") BigInteger locked,
            @Schema(requiredMode = REQUIRED, description = "claimed over all channels, fees included") BigInteger claimed,
            @Schema(requiredMode = REQUIRED, description = "protocol fees paid by claims over all channels") BigInteger feesPaid) {
    }

    record BusyProvider(@Schema(requiredMode = REQUIRED) String provider, @Schema(requiredMode = REQUIRED) long channels,
                        @Schema(requiredMode = REQUIRED) BigInteger claimed, @Schema(requiredMode = REQUIRED) BigInteger feesPaid) {
    }

    /** One channel event from the chain; only the members of its kind are present. */
    record Activity(
            @Schema(requiredMode = REQUIRED, allowableValues = {"opened", "claimed", "closed"}) String kind,
            @Schema(requiredMode = REQUIRED) String channelId,
            @Schema(requiredMode = REQUIRED, description = "when the ledger recorded it") Instant at,
            String consumer,
            String provider,
            @Schema(description = "opened: the deposit") BigInteger deposit,
            @Schema(description = "opened: the expiry, Unix seconds") Long expiryEpochSeconds,
            @Schema(description = "claimed: the gross increment of this claim") BigInteger payout,
            @Schema(description = "claimed: the part of the payout that went to the protocol") BigInteger fee,
            @Schema(description = "claimed: the channel's claimed total after this claim") BigInteger totalClaimed,
            @Schema(description = "closed: what went back to the consumer") BigInteger refund,
            @Schema(allowableValues = {"cooperative", "after_expiry"}) String closeKind,
            @Schema(description = "null for a channel opened provisionally, before its open log was final") ChainRef chainRef) {
    }
}
