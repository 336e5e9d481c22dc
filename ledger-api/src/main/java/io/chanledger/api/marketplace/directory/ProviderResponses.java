package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.config.ProtocolProperties;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.provider.ModelPrice;
import io.chanledger.projections.marketplace.CatalogSnapshot;
import io.chanledger.projections.marketplace.FeedbackSummary;
import io.chanledger.projections.marketplace.MarketplaceCatalog;
import io.chanledger.projections.marketplace.ProviderReports;
import io.chanledger.projections.marketplace.ProviderRow;
import io.chanledger.projections.marketplace.ProviderView;
import io.chanledger.projections.marketplace.TelemetrySummary;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.springframework.stereotype.Component;

/**
 * The provider list and the directory, precomputed from each catalog snapshot when it arrives:
 * the unfiltered list (what agents ask for most) and the directory are serialized once per
 * change; filtered lists are built from the ready entries and cached until the next change.
 */
@Component
class ProviderResponses {

    static final String VERSION = "1.0";
    private static final int MAX_CACHED_QUERIES = 256;

    /** A listed provider: its view for filtering, its spec-shaped entry for rendering. */
    private record Listed(ProviderView view, ProvidersResponse.Provider entry) {
    }

    private record State(CatalogSnapshot snapshot, List<Listed> listed, Rendered unfiltered, Rendered directory,
                         Map<String, DirectoryResponse.Entry> directoryEntries,
                         Map<ProviderQuery, Rendered> queries) {
    }

    private final ObjectMapper mapper;
    private final MarketplaceProperties properties;
    private final long chainId;
    private final ProvidersResponse.ProtocolMeta meta;
    private volatile State state;

    ProviderResponses(MarketplaceCatalog catalog, ObjectMapper mapper, MarketplaceProperties properties,
                    ChainProperties chain) {
        this.mapper = mapper;
        this.properties = properties;
        this.chainId = chain.chainId();
        this.meta = new ProvidersResponse.ProtocolMeta(ProtocolProperties.NAME, properties.network(),
                Hex.toChecksumAddress(chain.channelContract()), properties.directoryUrl(), properties.marketplaceUrl());
        catalog.addListener(this::rebuild);
    }

    Rendered providers(ProviderQuery query) {
        State current = state;
        if (query.equals(ProviderQuery.DEFAULT)) {
            return current.unfiltered();
        }
        Rendered cached = current.queries().get(query);
        if (cached != null) {
            return cached;
        }
        Rendered rendered = render(current, query);
        if (current.queries().size() < MAX_CACHED_QUERIES) {
            current.queries().put(query, rendered);
        }
        return rendered;
    }

    Rendered directory() {
        return state.directory();
    }

    Optional<DirectoryResponse.Entry> directoryEntry(String providerId) {
        return Optional.ofNullable(state.directoryEntries().get(providerId));
    }

    CatalogSnapshot snapshot() {
        return state.snapshot();
    }

    private void rebuild(CatalogSnapshot snapshot) {
        List<Listed> listed = snapshot.providers().stream()
                .filter(ProviderView::listed)
                .map(view -> new Listed(view, entry(view)))
                .toList();
        Map<String, DirectoryResponse.Entry> entries = new ConcurrentHashMap<>();
        Map<String, String> duplicateNames = ProviderNames.duplicates(snapshot.providers());
        List<DirectoryResponse.Entry> all = snapshot.providers().stream()
                .map(view -> directoryEntry(view, duplicateNames.get(view.id()))).toList();
        all.forEach(e -> entries.put(e.id(), e));
        Rendered directory = Rendered.of(mapper, new DirectoryResponse(VERSION, millis(snapshot.builtAt()), all.size(), all));
        State next = new State(snapshot, listed, null, directory, entries, new ConcurrentHashMap<>());
        state = new State(snapshot, listed, render(next, ProviderQuery.DEFAULT), directory, entries, next.queries());
    }

    private Rendered render(State current, ProviderQuery query) {
        List<?> providers = select(current.listed().stream(), query)
                .map(Listed::entry)
                .map(entry -> query.format() == ProviderQuery.Format.COMPACT
                        ? ProvidersResponse.CompactProvider.of(entry) : entry)
                .toList();
        return Rendered.of(mapper, new ProvidersResponse(VERSION, providers.size(), millis(current.snapshot().builtAt()),
                providers, ProviderQuery.DESCRIPTION, meta));
    }

    private static Stream<Listed> select(Stream<Listed> listed, ProviderQuery query) {
        return listed
                .filter(p -> !query.onlineOnly() || p.view().online())
                .filter(p -> query.category() == null || p.view().row().category().equals(query.category())
                        || p.view().row().additionalCategories().contains(query.category()))
                .filter(p -> query.tier() == null || p.view().row().tier().equals(query.tier()))
                .filter(p -> query.minScore() == null || score(p.view().row()).compareTo(query.minScore()) >= 0)
                .filter(p -> query.model() == null || p.view().models().stream().anyMatch(m -> matches(m, query.model())))
                .limit(query.limit());
    }

    /** Real clients match a model by id, or by a part of its name, ignoring case. */
    static boolean matches(ModelPrice model, String lowercaseQuery) {
        return model.id().toLowerCase(Locale.ROOT).contains(lowercaseQuery)
                || model.name().toLowerCase(Locale.ROOT).contains(lowercaseQuery);
    }

    private static BigDecimal score(ProviderRow row) {
        return row.score() == null ? BigDecimal.ZERO : row.score();
    }

    private ProvidersResponse.Provider entry(ProviderView view) {
        ProviderRow row = view.row();
        return new ProvidersResponse.Provider(row.providerId(), row.name(), row.description(), row.apiUrl(),
                Hex.toChecksumAddress(row.address()), row.category(), chainId,
                new ProvidersResponse.Status(view.online(), millis(view.health().lastChecked()), view.health().latencyMs(),
                        view.inferenceOnline()),
                models(view.models()), properties.providerProtocol(), agentDocsUrl(row), view.qualityScore(),
                view.profile().logoUrl(), view.profile().website(), view.profile().supportsStreaming());
    }

    /** What agents read before their first request, and what the health checks verify. */
    static String agentDocsUrl(ProviderRow row) {
        return row.apiUrl() + "/v1/docs";
    }

    static List<ProvidersResponse.Model> models(List<ModelPrice> models) {
        return models.stream().map(ProvidersResponse.Model::of).toList();
    }

    private DirectoryResponse.Entry directoryEntry(ProviderView view, String duplicateNameOf) {
        ProviderRow row = view.row();
        ProviderView.Health health = view.health();
        return new DirectoryResponse.Entry(row.providerId(), row.name(), row.description(), row.apiUrl(),
                Hex.toChecksumAddress(row.address()), row.category(), row.additionalCategories(), row.tier(),
                row.hotkey(), row.uid(), view.contact(), row.docsUrl(), chainId, millis(row.registeredAt()),
                new DirectoryResponse.Approval(row.approval(), millis(row.approvalChangedAt()), row.suspensionReason()),
                row.score(),
                new DirectoryResponse.DirectoryStatus(view.online(), millis(row.onlineChangedAt()),
                        millis(health.lastChecked()), health.latencyMs(), health.consecutiveFailures(),
                        row.online() ? health.lastError() : firstNonNull(health.lastError(), row.offlineReason()),
                        view.inferenceOnline(), health.inferenceError()),
                models(view.models()),
                view.history().stream().map(h -> new DirectoryResponse.History(millis(h.at()), h.kind(), h.detail()))
                        .toList(),
                feedback(view.feedback()), telemetry(view.telemetry()), view.qualityScore(),
                view.profile().logoUrl(), view.profile().website(), view.profile().supportsStreaming(),
                duplicateNameOf);
    }

    private DirectoryResponse.Telemetry telemetry(ProviderReports<TelemetrySummary> reports) {
        TelemetrySummary verified = reports.verified();
        return new DirectoryResponse.Telemetry(properties.telemetry().window().toString(), verified.requests(),
                verified.failures(), verified.failureRate(), byStatus(verified), verified.failuresWithoutStatus(),
                latency(verified), verified.paidVolume(), reports.votes().wallets(), counts(reports.unverified()));
    }

    private static DirectoryResponse.TelemetryCounts counts(TelemetrySummary summary) {
        return new DirectoryResponse.TelemetryCounts(summary.requests(), summary.failures(), summary.failureRate(),
                byStatus(summary), summary.failuresWithoutStatus(), latency(summary), summary.paidVolume());
    }

    private static Map<String, Long> byStatus(TelemetrySummary summary) {
        Map<String, Long> byStatus = new LinkedHashMap<>();
        summary.failuresByStatus().forEach((status, count) -> byStatus.put(Integer.toString(status), count));
        return byStatus;
    }

    private static DirectoryResponse.Latency latency(TelemetrySummary summary) {
        return new DirectoryResponse.Latency(summary.latencyP50Ms(), summary.latencyP95Ms());
    }

    private DirectoryResponse.Feedback feedback(ProviderReports<FeedbackSummary> reports) {
        FeedbackSummary verified = reports.verified();
        FeedbackSummary unverified = reports.unverified();
        return new DirectoryResponse.Feedback(properties.feedback().window().toString(), verified.reports(),
                verified.successes(), verified.failures(), verified.successRate(), verified.failureReasons(),
                reports.votes().wallets(), new DirectoryResponse.FeedbackCounts(unverified.reports(),
                unverified.successes(), unverified.failures(), unverified.successRate(), unverified.failureReasons()));
    }

    private static String firstNonNull(String a, String b) {
        return a != null ? a : b;
    }

    static Instant millis(Instant instant) {
        return instant == null ? null : instant.truncatedTo(ChronoUnit.MILLIS);
    }
}
