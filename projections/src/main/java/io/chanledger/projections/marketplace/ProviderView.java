package io.chanledger.projections.marketplace;

import io.chanledger.domain.provider.ModelPrice;
import java.time.Instant;
import java.util.List;

/**
 * Everything the marketplace knows about one provider, as the read endpoints render it: the
 * directory row, its models (ordered by id), the last health check, the contact given at
 * registration, the latest status history (oldest first) and agents' reports over the feedback
 * window.
 */
public record ProviderView(ProviderRow row, List<ModelPrice> models, Health health, String contact,
                           List<HistoryEntry> history, FeedbackSummary feedback) {

    /** The last poll; {@code latencyMs} is the last successful one's. Null before the first check. */
    public record Health(Instant lastChecked, Long latencyMs, int consecutiveFailures, String lastError) {
    }

    public ProviderView {
        models = List.copyOf(models);
        history = List.copyOf(history);
        feedback = feedback == null ? FeedbackSummary.NONE : feedback;
    }

    public String id() {
        return row.providerId();
    }

    public boolean listed() {
        return row.isApproved();
    }

    public boolean online() {
        return row.online();
    }
}
