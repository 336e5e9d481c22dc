package io.chanledger.projections.marketplace;

import io.chanledger.domain.provider.ModelPrice;
import io.chanledger.domain.provider.ProviderProfile;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * Everything the marketplace knows about one provider, as the read endpoints render it: the
 * directory row, its models (ordered by id), the last health check, the contact given at
 * registration, the latest status history (oldest first), agents' reports over the feedback
 * window and their clients' reports of paid requests over the telemetry window (each verified and
 * unverified apart), this service's health checks of the last hour, the quality score computed
 * from these, and the profile it registered (logo, website, streaming).
 */
public record ProviderView(ProviderRow row, List<ModelPrice> models, Health health, String contact,
                           List<HistoryEntry> history, ProviderReports<FeedbackSummary> feedback,
                           ProviderReports<TelemetrySummary> telemetry, CheckSummary checks,
                           ProviderProfile profile) {

    /**
     * The last poll; {@code latencyMs} is the last successful one's. {@code consecutiveFailures} and
     * {@code lastError} are the pricing side's, {@code inferenceFailures} and {@code inferenceError}
     * the inference side's. Null before the first check.
     */
    public record Health(Instant lastChecked, Long latencyMs, int consecutiveFailures, String lastError,
                         int inferenceFailures, String inferenceError) {

        public Health(Instant lastChecked, Long latencyMs, int consecutiveFailures, String lastError) {
            this(lastChecked, latencyMs, consecutiveFailures, lastError, 0, null);
        }
    }

    public ProviderView {
        models = List.copyOf(models);
        history = List.copyOf(history);
        feedback = feedback == null ? ProviderReports.NO_FEEDBACK : feedback;
        telemetry = telemetry == null ? ProviderReports.NO_TELEMETRY : telemetry;
        checks = checks == null ? CheckSummary.NONE : checks;
        profile = profile == null ? ProviderProfile.NONE : profile;
    }

    /** A provider nothing was observed of yet (no reports, no health checks counted). */
    public ProviderView(ProviderRow row, List<ModelPrice> models, Health health, String contact,
                        List<HistoryEntry> history) {
        this(row, models, health, contact, history, null, null, null, null);
    }

    /** 0 to 1, null while nothing is known ({@link QualityScore}). */
    public BigDecimal qualityScore() {
        return QualityScore.of(checks, feedback.votes(), telemetry.votes());
    }

    public String id() {
        return row.providerId();
    }

    public boolean listed() {
        return row.isApproved();
    }

    /**
     * Online for agents, as the deployed marketplace lists providers (docs/protocol.md §D.7): its
     * pricing answers and its inference side is up.
     */
    public boolean online() {
        return row.online() && row.inferenceOnline();
    }

    /** Its {@code /v1/models} and {@code /v1/pricing} answer: what the pricing side's health checks follow. */
    public boolean pricingOnline() {
        return row.online();
    }

    /** Its {@code /v1/docs} and the 402 of its chat endpoint answer as agents need them. */
    public boolean inferenceOnline() {
        return row.inferenceOnline();
    }
}
