package io.chanledger.api.marketplace;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.http.ApiProblem;
import io.chanledger.domain.provider.ProviderIds;
import io.chanledger.projections.marketplace.MarketplaceCatalog;
import io.chanledger.projections.marketplace.ProviderFeedbackStore;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;

/**
 * Agents' reports on providers after a session: {@code {providerId, outcome, reason?, protocol?}}.
 * Each accepted report is a row of its own; the directory shows the counts over
 * {@code feedback.window}. Reports are published — the catalog rebuilt with them on every
 * instance — at most once per {@code feedback.publish-interval}, so that a stream of reports costs
 * one rebuild per interval, and rows past the window are deleted then.
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

    private final ProviderFeedbackStore store;
    private final MarketplaceCatalog catalog;
    private final ReportMetrics metrics;
    private final MarketplaceProperties.Feedback settings;
    private final String protocol;
    private final Clock clock;

    ProviderFeedback(ProviderFeedbackStore store, MarketplaceCatalog catalog, ReportMetrics metrics,
                     MarketplaceProperties properties, Clock clock) {
        super("feedback", properties.feedback().publishInterval(), catalog);
        this.store = store;
        this.catalog = catalog;
        this.metrics = metrics;
        this.settings = properties.feedback();
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

    /** Records a report on a provider of the directory (any approval state: it may have been suspended since). */
    void record(Report report) {
        if (!ProviderIds.isProviderId(report.providerId())
                || catalog.current().find(report.providerId()).isEmpty()) {
            throw new ApiProblem(HttpStatus.NOT_FOUND, "provider_not_found", "no provider " + report.providerId()
                    + "; use the id /api/mcp/providers gives", Map.of("providerId", report.providerId()));
        }
        store.record(report.providerId(), report.outcome(), report.reason(), clock.instant());
        recorded();
        metrics.feedback(report.outcome(), report.reason());
    }

    @Override
    void prune() {
        store.deleteBefore(clock.instant().minus(settings.window()));
        store.markChanged();
    }
}
