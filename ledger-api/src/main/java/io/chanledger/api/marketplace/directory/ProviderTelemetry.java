package io.chanledger.api.marketplace.directory;

import io.chanledger.api.http.ApiProblem;
import io.chanledger.domain.provider.ProviderIds;
import io.chanledger.projections.marketplace.MarketplaceCatalog;
import io.chanledger.projections.marketplace.ProviderTelemetryStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;

/**
 * Agents' clients' reports of their paid requests: each one that its source's quota admits
 * ({@link ReportQuotas}: per wallet when verified, per source network when not) is a row of
 * {@code marketplace_telemetry} (provider, time, latency, status, cost, and the wallet of a
 * verified report; nothing about the sender of an unverified one). The directory shows the
 * aggregates over {@code telemetry.window}, verified and unverified apart; only verified ones
 * count in the quality score. Reports are published — the catalog rebuilt with them on every
 * instance — at most once per {@code telemetry.publish-interval}, and rows past the window are
 * deleted then.
 */
@Service
class ProviderTelemetry extends PublishedReports {

    /** What became of a post's request reports: how many were counted, and how many of those as verified. */
    record Recorded(int recorded, int verified) {
    }

    private final ProviderTelemetryStore store;
    private final MarketplaceCatalog catalog;
    private final ReportSources sources;
    private final MarketplaceProperties.Telemetry settings;
    private final ReportQuotas quotas;
    private final Clock clock;

    ProviderTelemetry(ProviderTelemetryStore store, MarketplaceCatalog catalog, ReportSources sources,
                      MarketplaceProperties properties, Clock clock) {
        super("telemetry", properties.telemetry().publishInterval(), catalog);
        this.store = store;
        this.catalog = catalog;
        this.sources = sources;
        this.settings = properties.telemetry();
        this.quotas = new ReportQuotas(settings.reportsPerSource(), settings.sourcePeriod(),
                properties.reportSourcesPerProvider());
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

    /** Records the reports of {@code sender} that their sources' quotas admit. */
    Recorded record(List<ClientTelemetry.Event> events, ReportSources.Sender sender) {
        Instant now = clock.instant();
        Map<String, ReportSource> sourceOn = new HashMap<>();
        List<ProviderTelemetryStore.Sample> samples = new ArrayList<>();
        int verified = 0;
        for (ClientTelemetry.Event event : events) {
            ClientTelemetry.RequestReport report = event.report();
            if (report == null) {
                continue;
            }
            ReportSource source = sourceOn.computeIfAbsent(report.providerId(), id -> catalog.current().find(id)
                    .map(provider -> sources.sourceOn(sender, provider))
                    .orElseGet(() -> new ReportSource.Network(sender.network())));
            if (quotas.admit(report.providerId(), source)) {
                samples.add(new ProviderTelemetryStore.Sample(report.providerId(), now, report.latencyMs(),
                        report.httpStatus(), report.cost(), source.wallet()));
                verified += source.wallet() == null ? 0 : 1;
            }
        }
        store.record(samples);
        if (!samples.isEmpty()) {
            recorded();
        }
        return new Recorded(samples.size(), verified);
    }

    @Override
    void prune() {
        store.deleteBefore(clock.instant().minus(settings.window()));
        store.markChanged();
    }
}
