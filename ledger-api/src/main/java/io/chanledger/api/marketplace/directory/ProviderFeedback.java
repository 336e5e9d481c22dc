package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.http.ApiProblem;
import io.chanledger.domain.provider.ProviderIds;
import io.chanledger.projections.marketplace.MarketplaceCatalog;
import io.chanledger.projections.marketplace.ProviderFeedbackStore;
import io.chanledger.projections.marketplace.ProviderView;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;

/**
 * Agents' reports on providers after a session: {@code {providerId, outcome, reason?, protocol?}}.
 * A report signed by a wallet with a channel with the provider is verified and keeps that wallet;
 * any other is unverified and keeps nothing about its sender ({@link ReportSources}). Each report
 * its source's quota admits ({@link ReportQuotas}) is a row of its own; the directory shows the
 * counts over {@code feedback.window}, verified and unverified apart, and only verified ones count
 * in the quality score. Reports are published — the catalog rebuilt with them on every instance —
 * at most once per {@code feedback.publish-interval}, so that a stream of reports costs one rebuild
 * per interval, and rows past the window are deleted then.
 */
@Service
class ProviderFeedback extends PublishedReports {

    static final List<String> OUTCOMES = List.of("success", "failure");
    static final List<String> REASONS = List.of("quality", "timeout", "error", "format", "unavailable");
    static final String SHAPE = "{\"providerId\": \"prov-...\", \"outcome\": \"success\" or \"failure\", "
            + "\"reason\": \"quality\", \"timeout\", \"error\", \"format\" or \"unavailable\" (failures only, optional), "
            + "\"protocol\": \"chan\"}";

    /** A report as accepted: {@code reason} is null for successes and for failures that gave none. */
    record Report(String providerId, String outcome, String reason) {
    }

    /** What became of a report: counted (or over its source's share) and whether as verified. */
    record Recorded(boolean recorded, boolean verified) {
    }

    private final ProviderFeedbackStore store;
    private final MarketplaceCatalog catalog;
    private final ReportSources sources;
    private final ReportMetrics metrics;
    private final MarketplaceProperties.Feedback settings;
    private final ReportQuotas quotas;
    private final String protocol;
    private final Clock clock;

    ProviderFeedback(ProviderFeedbackStore store, MarketplaceCatalog catalog, ReportSources sources,
                     ReportMetrics metrics, MarketplaceProperties properties, Clock clock) {
        super("feedback", properties.feedback().publishInterval(), catalog);
        this.store = store;
        this.catalog = catalog;
        this.sources = sources;
        this.metrics = metrics;
        this.settings = properties.feedback();
        this.quotas = new ReportQuotas(settings.reportsPerSource(), settings.sourcePeriod(),
                properties.reportSourcesPerProvider());
        this.protocol = properties.providerProtocol();
        this.clock = clock;
    }

    /** Every rule a report must meet, in the order a client would fix them. */
    Report parse(JsonNode body) {
        String providerId = ReportBodies.requiredText(body, "providerId", "the id of the provider, as "
                + "/api/mcp/providers lists it");
        String outcome = ReportBodies.optionalText(body, "outcome");
        if (outcome == null || !OUTCOMES.contains(outcome)) {
            throw FieldProblem.field("outcome", "must be success or failure");
        }
        String reason = ReportBodies.optionalText(body, "reason");
        if (reason != null && outcome.equals("success")) {
            throw FieldProblem.field("reason", "is given only with outcome failure");
        }
        if (reason != null && !REASONS.contains(reason)) {
            throw FieldProblem.field("reason", "must be one of " + String.join(", ", REASONS));
        }
        String reportedProtocol = ReportBodies.optionalText(body, "protocol");
        if (reportedProtocol != null && !reportedProtocol.equals(protocol)) {
            throw FieldProblem.field("protocol", "this marketplace takes feedback on providers of protocol " + protocol);
        }
        return new Report(providerId, outcome, reason);
    }

    /**
     * Records a report of {@code sender} on a provider of the directory (any approval state: it may
     * have been suspended since), when its source's quota admits it.
     */
    Recorded record(Report report, ReportSources.Sender sender) {
        ProviderView provider = (ProviderIds.isProviderId(report.providerId())
                ? catalog.current().find(report.providerId()) : Optional.<ProviderView>empty())
                .orElseThrow(() -> new ApiProblem(HttpStatus.NOT_FOUND, "provider_not_found", "no provider "
                        + report.providerId() + "; use the id /api/mcp/providers gives",
                        Map.of("providerId", report.providerId())));
        ReportSource source = sources.sourceOn(sender, provider);
        if (!quotas.admit(report.providerId(), source)) {
            return new Recorded(false, source.wallet() != null);
        }
        store.record(report.providerId(), report.outcome(), report.reason(), clock.instant(), source.wallet());
        recorded();
        metrics.feedback(report.outcome(), report.reason());
        return new Recorded(true, source.wallet() != null);
    }

    @Override
    void prune() {
        store.deleteBefore(clock.instant().minus(settings.window()));
        store.markChanged();
    }
}
