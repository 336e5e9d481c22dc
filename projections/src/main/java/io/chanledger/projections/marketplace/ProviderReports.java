package io.chanledger.projections.marketplace;

/**
 * What agents reported on one provider of one kind (feedback, or their paid requests) over its
 * window, in two parts that are never mixed: the verified reports, signed by a wallet that has a
 * channel with the provider, with how those wallets voted ({@link WalletVotes}, what the quality
 * score reads), and the unverified ones, anonymous, shown apart and counted in no score.
 */
public record ProviderReports<S>(S verified, WalletVotes votes, S unverified) {

    public static final ProviderReports<FeedbackSummary> NO_FEEDBACK =
            new ProviderReports<>(FeedbackSummary.NONE, WalletVotes.NONE, FeedbackSummary.NONE);
    public static final ProviderReports<TelemetrySummary> NO_TELEMETRY =
            new ProviderReports<>(TelemetrySummary.NONE, WalletVotes.NONE, TelemetrySummary.NONE);
}
