package io.chanledger.projections.marketplace;

import io.chanledger.domain.provider.ModelPrice;
import java.time.Instant;
import java.util.List;

/**
 * Everything the marketplace knows about one provider, as the read endpoints render it: the
 * directory row, its models (ordered by id), the last health check, the contact given at
 * registration and the latest status history (oldest first).
 */
public record ProviderView(ProviderRow row, List<ModelPrice> models, Health health, String contact,
                           List<HistoryEntry> history) {

    /** The last poll; {@code latencyMs} is the last successful one's. Null before the first check. */
    public record Health(Instant lastChecked, Long latencyMs, int consecutiveFailures, String lastError) {
    }

    public ProviderView {
        models = List.copyOf(models);
        history = List.copyOf(history);
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
