package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.http.ApiProblem;
import io.chanledger.domain.provider.ApprovalState;
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
 *
 * <p>The same body with {@code reachable: true} and the provider's own {@code {apiUrl}/v1/pricing}
 * is a provider's request to be checked again, as it sends when it restarts (the way its models and
 * prices change): answered by the same check, which publishes what changed, for a listed or pending
 * provider, at most once per cooldown of its own, so that validators' alerts never hold it back.
 */
@Service
class ProbeAlerts {

    static final String SHAPE = "{\"providerId\": \"prov-...\", \"probeUrl\": \"<the registry entry's probeUrl>\", "
            + "\"reachable\": false}";
    /** Where a provider publishes its models and prices; the URL of its own request to be checked again. */
    static final String PRICING_PATH = "/v1/pricing";

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
    private final Map<String, Instant> lastRechecked = new ConcurrentHashMap<>();

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
        ProviderView provider = registered(providerId);
        String apiUrl = provider.row().apiUrl();
        boolean pricing = sameUrl(probeUrl, apiUrl + PRICING_PATH);
        if (reachable.booleanValue() && pricing) {
            return recheck(provider);
        }
        if (!provider.listed()) {
            throw notFound(providerId, "no listed provider " + providerId
                    + "; the registry names the providers validators probe");
        }
        if (!pricing && !sameUrl(probeUrl, ValidatorRegistry.probeUrl(apiUrl)) && !sameUrl(probeUrl, apiUrl)) {
            throw FieldProblem.field("probeUrl", "is none of the URLs of " + providerId + ": its apiUrl, the probeUrl "
                    + "the registry gives (" + ValidatorRegistry.PROBE_PATH + ") and its " + PRICING_PATH);
        }
        if (reachable.booleanValue()) {
            metrics.probeAlert("reported_reachable");
            return new Outcome(providerId, false, null, "nothing to check: the validators found the provider reachable");
        }
        if (!claim(lastProbed, providerId)) {
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

    /** A provider's own request to be checked again: its models and prices are read and published now. */
    private Outcome recheck(ProviderView provider) {
        String providerId = provider.id();
        if (ApprovalState.SUSPENDED.code().equals(provider.row().approval())) {
            throw notFound(providerId, "no listed or pending provider " + providerId + ": it is suspended, and "
                    + "this service checks it no more");
        }
        if (!claim(lastRechecked, providerId)) {
            metrics.probeAlert("recheck_not_probed");
            return new Outcome(providerId, false, null, "checked again less than " + cooldown.toSeconds()
                    + " s ago; the next poll reads its models and prices (a pending provider's, its approval)");
        }
        ProviderHealthChecker.Result result = checker.checkNow(provider);
        metrics.probeAlert(result.reachable() ? "recheck_reachable" : "recheck_unreachable");
        return new Outcome(providerId, true, result.reachable(), result.reachable()
                ? "checked again: the models and prices of its " + PRICING_PATH + " are published"
                : "checked again, and this service's health check failed (" + result.failure() + ")");
    }

    /** Takes this provider's probe of one kind for the cooldown; false when another request took it within. */
    private boolean claim(Map<String, Instant> lastOfKind, String providerId) {
        Instant now = clock.instant();
        AtomicBoolean claimed = new AtomicBoolean();
        lastOfKind.compute(providerId, (id, last) -> {
            if (last != null && now.isBefore(last.plus(cooldown))) {
                return last;
            }
            claimed.set(true);
            return now;
        });
        return claimed.get();
    }

    private ProviderView registered(String providerId) {
        Optional<ProviderView> known = ProviderIds.isProviderId(providerId) ? catalog.current().find(providerId)
                : Optional.empty();
        return known.orElseThrow(() -> notFound(providerId, "no listed provider " + providerId
                + "; the registry names the providers validators probe"));
    }

    private static ApiProblem notFound(String providerId, String detail) {
        return new ApiProblem(HttpStatus.NOT_FOUND, "provider_not_found", detail, Map.of("providerId", providerId));
    }

    private static boolean sameUrl(String a, String b) {
        return strip(a).equals(strip(b));
    }

    private static String strip(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
