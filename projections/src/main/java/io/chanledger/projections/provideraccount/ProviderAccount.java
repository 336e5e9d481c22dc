package io.chanledger.projections.provideraccount;

import java.math.BigInteger;
import java.time.Instant;

/**
 * A provider's account over all its channels: how many are open (or expired but not closed),
 * what it can claim now, what it claimed and paid in fees, and what is at risk — claimable on
 * channels whose consumer may close within the at-risk window (computed when asked, because it
 * depends on the clock). {@code atRiskChannels} counts those channels.
 */
public record ProviderAccount(
        String provider,
        long channels,
        long openChannels,
        long expiredChannels,
        BigInteger claimable,
        BigInteger claimed,
        BigInteger feesPaid,
        BigInteger atRisk,
        long atRiskChannels,
        Instant lastActivity) {
}
