package io.chanledger.api.marketplace;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.http.ApiProblem;
import io.chanledger.domain.provider.ProviderIds;
import io.chanledger.projections.marketplace.MarketplaceCatalog;
import io.chanledger.projections.marketplace.ProviderView;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import org.springframework.lang.Nullable;

/**
 * Validators' reports that a provider is unreachable ({@code {providerId, probeUrl, reachable}}).
 * An alert is a signal, never a verdict: it is answered by this service's own health check of the
 * provider, at once, which records what it finds like any other check. A provider that answers
 * stays online whoever says otherwise; one that does not goes offline only after as many failed
 * checks in a row as a poll needs. A provider is checked for alerts at most once per
 * {@code probe-alerts.cooldown}, however many validators report it.
 */
@Service
class ProbeAlerts {

    static final String SHAPE = "{\"providerId\": \"prov-...\", \"probeUrl\": \"<the registry entry's probeUrl>\", "
            + "\"reachable\": false}";

    /** What an alert led to: whether it probed, and if so, whether the provider answered. */
    @Schema(name = "ProbeAlertOutcome")
    record Outcome(String providerId, boolean probed, @Nullable Boolean reachable, @Nullable String detail) {
    }

    private final MarketplaceCatalog catalog;
    private final ProviderHealthChecker checker;
    private final ReportMetrics metrics;
    private final Duration cooldown;
    private final Clock clock;
    private final Map<String, Instant> lastProbed = new ConcurrentHashMap<>();

    ProbeAlerts(MarketplaceCatalog catalog, ProviderHealthChecker checker, ReportMetrics metrics,
                MarketplaceProperties properties, Clock clock) {
        this.catalog = catalog;
        this.checker = checker;
        this.metrics = metrics;
        this.cooldown = properties.probeAlerts().cooldown();
        this.clock = clock;
    }

    Outcome handle(JsonNode body) {
        String providerId = ReportBodies.requiredText(body, "providerId", "the id of the registry entry");
        String probeUrl = ReportBodies.requiredText(body, "probeUrl", "the URL the validators probed");
        JsonNode reachable = body.get("reachable");
        if (reachable == null || !reachable.isBoolean()) {
            throw FieldProblem.field("reachable", "must be true or false");
        }
        ProviderView provider = listed(providerId);
        if (!sameUrl(probeUrl, ValidatorRegistry.probeUrl(provider.row().apiUrl()))
                && !sameUrl(probeUrl, provider.row().apiUrl())) {
            throw FieldProblem.field("probeUrl", "is neither the probeUrl nor the apiUrl the registry gives for "
                    + providerId);
        }
        if (reachable.booleanValue()) {
            metrics.probeAlert("reported_reachable");
            return new Outcome(providerId, false, null, "nothing to check: the validators found the provider reachable");
        }
        if (!claimProbe(providerId)) {
            metrics.probeAlert("not_probed");
            return new Outcome(providerId, false, null, "checked for an alert less than " + cooldown.toSeconds()
                    + " s ago; the next check follows the next alert after that, or the next poll");
        }
        ProviderHealthChecker.Result result = checker.checkNow(provider);
        metrics.probeAlert(result.reachable() ? "reachable" : "unreachable");
        return new Outcome(providerId, true, result.reachable(), result.reachable()
                ? "the provider answered this service's health check and stays listed"
                : "this service's health check failed too (" + result.failure() + "); the provider goes offline "
                        + "after as many failed checks in a row as polls need");
    }

    /** Takes this provider's probe for the cooldown; false when another alert took it within. */
    private boolean claimProbe(String providerId) {
        Instant now = clock.instant();
        AtomicBoolean claimed = new AtomicBoolean();
        lastProbed.compute(providerId, (id, last) -> {
            if (last != null && now.isBefore(last.plus(cooldown))) {
                return last;
            }
            claimed.set(true);
            return now;
        });
        return claimed.get();
    }

    private ProviderView listed(String providerId) {
        Optional<ProviderView> known = ProviderIds.isProviderId(providerId) ? catalog.current().find(providerId)
                : Optional.empty();
        return known.filter(ProviderView::listed)
                .orElseThrow(() -> new ApiProblem(HttpStatus.NOT_FOUND, "provider_not_found", "no listed provider "
                        + providerId + "; the registry names the providers validators probe",
                        Map.of("providerId", providerId)));
    }

    private static boolean sameUrl(String a, String b) {
        return strip(a).equals(strip(b));
    }

    private static String strip(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
