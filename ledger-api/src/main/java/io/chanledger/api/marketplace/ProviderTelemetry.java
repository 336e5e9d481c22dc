package io.chanledger.api.marketplace;

import io.chanledger.api.http.ApiProblem;
import io.chanledger.domain.provider.ProviderIds;
import io.chanledger.projections.marketplace.MarketplaceCatalog;
import io.chanledger.projections.marketplace.ProviderTelemetryStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;

/**
 * Agents' clients' reports of their paid requests: each one that its agent's and address's
 * {@link TelemetryQuota} admits is a row of {@code marketplace_telemetry} (provider, time, latency,
 * status, cost; nothing about the sender). The directory shows the aggregates over
 * {@code telemetry.window}. Reports are published — the catalog rebuilt with them on every
 * instance — at most once per {@code telemetry.publish-interval}, and rows past the window are
 * deleted then.
 */
@Service
class ProviderTelemetry extends PublishedReports {

    private final ProviderTelemetryStore store;
    private final MarketplaceCatalog catalog;
    private final MarketplaceProperties.Telemetry settings;
    private final TelemetryQuota quota;
    private final Clock clock;

    ProviderTelemetry(ProviderTelemetryStore store, MarketplaceCatalog catalog, MarketplaceProperties properties,
                      Clock clock) {
        super("telemetry", properties.telemetry().publishInterval(), catalog);
        this.store = store;
        this.catalog = catalog;
        this.settings = properties.telemetry();
        this.quota = new TelemetryQuota(settings.reportsPerSource(), settings.sourcePeriod().toNanos(),
                properties.maxRateLimitedClients(), System::nanoTime);
        this.clock = clock;
    }

    /** Refuses the whole post when a report names a provider the directory does not have. */
    void requireKnownProviders(List<ClientTelemetry.Event> events) {
        for (int index = 0; index < events.size(); index++) {
            ClientTelemetry.RequestReport report = events.get(index).report();
            if (report != null && (!ProviderIds.isProviderId(report.providerId())
                    || catalog.current().find(report.providerId()).isEmpty())) {
                throw new ApiProblem(HttpStatus.NOT_FOUND, "provider_not_found", "events[" + index + "].providerId: no "
                        + "provider " + report.providerId() + "; use the id /api/mcp/providers gives",
                        Map.of("event", index, "field", "providerId", "providerId", report.providerId()));
            }
        }
    }

    /** Records the reports the quota admits from {@code address}; returns how many. */
    int record(List<ClientTelemetry.Event> events, String address) {
        Instant now = clock.instant();
        List<ProviderTelemetryStore.Sample> samples = new ArrayList<>();
        for (ClientTelemetry.Event event : events) {
            ClientTelemetry.RequestReport report = event.report();
            if (report != null && quota.admit(report.agentId(), address, report.providerId())) {
                samples.add(new ProviderTelemetryStore.Sample(report.providerId(), now, report.latencyMs(),
                        report.httpStatus(), report.cost()));
            }
        }
        store.record(samples);
        if (!samples.isEmpty()) {
            recorded();
        }
        return samples.size();
    }

    @Override
    void prune() {
        store.deleteBefore(clock.instant().minus(settings.window()));
        store.markChanged();
    }
}
