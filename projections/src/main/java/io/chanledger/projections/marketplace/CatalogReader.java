package io.chanledger.projections.marketplace;

import io.chanledger.domain.provider.ModelPrice;
import io.chanledger.domain.provider.PriceKind;
import io.chanledger.domain.provider.UnitPrice;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionOperations;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Reads the whole directory in nine queries (providers with health, contact and profile, models, history,
 * agents' reports over the last {@code feedbackWindow} counted per provider and per verified wallet,
 * their clients' reports of paid requests over the last {@code telemetryWindow} aggregated per
 * provider, by failed status and per verified wallet (see {@link ReportSummaries}), the health
 * checks of the last hour counted per provider with their latency).
 */
public class CatalogReader {

    private static final Comparator<ProviderView> LISTING_ORDER = Comparator
            .comparing((ProviderView p) -> p.row().score() == null ? BigDecimal.ZERO : p.row().score())
            .reversed()
            .thenComparing(p -> p.row().name())
            .thenComparing(ProviderView::id);

    private final JdbcTemplate jdbc;
    private final int historyLimit;
    /** The health checks the quality score counts: those of the last hour. */
    public static final Duration CHECKS_WINDOW = Duration.ofHours(1);

    private final Duration feedbackWindow;
    private final Duration telemetryWindow;

    private final TransactionOperations snapshotTransaction;

    /**
     * {@code transactions} runs {@link #readSnapshot} in one read-only repeatable-read transaction,
     * so that its queries all see the same committed state: a provider's row and the history entry
     * its change wrote are read together or not at all.
     */
    public CatalogReader(JdbcTemplate jdbc, PlatformTransactionManager transactions, int historyLimit,
                         Duration feedbackWindow, Duration telemetryWindow) {
        this.jdbc = jdbc;
        this.historyLimit = historyLimit;
        this.feedbackWindow = feedbackWindow;
        this.telemetryWindow = telemetryWindow;
        TransactionTemplate template = new TransactionTemplate(transactions);
        template.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        template.setReadOnly(true);
        this.snapshotTransaction = template;
    }

    /** For a table's own tests, which read what they wrote with nothing writing alongside. */
    public CatalogReader(JdbcTemplate jdbc, int historyLimit, Duration feedbackWindow) {
        this.jdbc = jdbc;
        this.historyLimit = historyLimit;
        this.feedbackWindow = feedbackWindow;
        this.telemetryWindow = Duration.ofHours(24);
        this.snapshotTransaction = TransactionOperations.withoutTransaction();
    }

    /** The change counter and the whole directory at it, read in one snapshot of the database. */
    public CatalogSnapshot readSnapshot(Instant builtAt) {
        return snapshotTransaction.execute(status -> read(version(), builtAt));
    }

    public long version() {
        Long version = jdbc.queryForObject("SELECT version FROM marketplace_read_version WHERE name = ?", Long.class,
                JdbcProviderDirectoryStore.VERSION_NAME);
        return version == null ? 0 : version;
    }

    /**
     * The directory as of {@code version}. Outside {@link #readSnapshot} each query sees what is
     * committed when it runs; read the version first, so that a change landing meanwhile moves it
     * again and is read next time.
     */
    public CatalogSnapshot read(long version, Instant builtAt) {
        // ordered in Java, not by the database's collation, so the list equals the published one
        Map<String, List<ModelPrice>> models = new HashMap<>();
        jdbc.query("SELECT provider_id, model_id, name, input_per_1k, output_per_1k, price_kind, unit, per_unit, "
                + "min_units, max_units FROM marketplace_provider_model ORDER BY provider_id, model_id", rs -> {
                    BigDecimal perUnit = rs.getBigDecimal("per_unit");
                    UnitPrice units = perUnit == null ? null : new UnitPrice(rs.getString("unit"),
                            perUnit.toBigIntegerExact(), rs.getLong("min_units"), rs.getLong("max_units"));
                    models.computeIfAbsent(rs.getString("provider_id"), k -> new ArrayList<>())
                            .add(new ModelPrice(rs.getString("model_id"), rs.getString("name"),
                                    rs.getBigDecimal("input_per_1k").toBigIntegerExact(),
                                    rs.getBigDecimal("output_per_1k").toBigIntegerExact(),
                                    PriceKind.ofWire(rs.getString("price_kind")), units));
                });
        Map<String, List<HistoryEntry>> history = new HashMap<>();
        jdbc.query("SELECT provider_id, sequence_number, occurred_at, kind, detail FROM ("
                + "SELECT h.*, ROW_NUMBER() OVER (PARTITION BY provider_id ORDER BY sequence_number DESC) AS rn "
                + "FROM marketplace_provider_history h) latest WHERE rn <= ? ORDER BY provider_id, sequence_number",
                rs -> {
                    history.computeIfAbsent(rs.getString("provider_id"), k -> new ArrayList<>())
                            .add(new HistoryEntry(rs.getLong("sequence_number"),
                                    JdbcProviderDirectoryStore.instant(rs, "occurred_at"), rs.getString("kind"),
                                    rs.getString("detail")));
                }, historyLimit);
        Map<String, ProviderReports<FeedbackSummary>> feedback = ReportSummaries.feedback(jdbc,
                builtAt.minus(feedbackWindow));
        Map<String, ProviderReports<TelemetrySummary>> telemetry = ReportSummaries.telemetry(jdbc,
                builtAt.minus(telemetryWindow));
        Map<String, CheckSummary> checks = new HashMap<>();
        jdbc.query("SELECT provider_id, COUNT(*) AS checks, SUM(CASE WHEN ok THEN 1 ELSE 0 END) AS passed, "
                + "PERCENTILE_DISC(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95 "
                + "FROM marketplace_provider_latency WHERE checked_at >= ? GROUP BY provider_id", rs -> {
                    long p95 = rs.getLong("p95");
                    checks.put(rs.getString("provider_id"), new CheckSummary(rs.getLong("checks"), rs.getLong("passed"),
                            rs.wasNull() ? null : p95));
                }, JdbcProviderDirectoryStore.time(builtAt.minus(CHECKS_WINDOW)));
        List<ProviderView> providers = jdbc.query("SELECT " + JdbcProviderDirectoryStore.columns("p") + ", h.last_checked, h.latency_ms, h.consecutive_failures, "
                + "h.last_error, h.inference_failures, h.inference_error, c.contact, f.profile "
                + "FROM marketplace_provider p "
                + "LEFT JOIN marketplace_provider_health h ON h.provider_id = p.provider_id "
                + "LEFT JOIN marketplace_provider_contact c ON c.provider_id = p.provider_id "
                + "LEFT JOIN marketplace_provider_profile f ON f.provider_id = p.provider_id", (rs, n) -> {
                    ProviderRow row = JdbcProviderDirectoryStore.row(rs);
                    long latency = rs.getLong("latency_ms");
                    Long latencyMs = rs.wasNull() ? null : latency;
                    ProviderView.Health health = new ProviderView.Health(
                            JdbcProviderDirectoryStore.instant(rs, "last_checked"), latencyMs,
                            rs.getInt("consecutive_failures"), rs.getString("last_error"),
                            rs.getInt("inference_failures"), rs.getString("inference_error"));
                    return new ProviderView(row, ModelPrice.canonical(models.getOrDefault(row.providerId(), List.of())), health,
                            rs.getString("contact"), history.getOrDefault(row.providerId(), List.of()),
                            feedback.get(row.providerId()), telemetry.get(row.providerId()),
                            checks.get(row.providerId()), JdbcProviderDirectoryStore.profile(rs.getString("profile")));
                });
        return new CatalogSnapshot(version, builtAt, providers.stream().sorted(LISTING_ORDER).toList());
    }
}
