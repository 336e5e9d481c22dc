package io.chanledger.projections.marketplace;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BinaryOperator;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Agents' reports per provider, verified and unverified apart (a row is verified when it names the
 * wallet that signed it, see {@link ProviderFeedbackStore}): the counts of each part, and how the
 * verified wallets voted, each wallet once. Part of {@link CatalogReader}'s snapshot.
 */
final class ReportSummaries {

    /** A request failed when it got no HTTP answer (no status) or a status of 400 or above. */
    private static final String FAILED = "(http_status IS NULL OR http_status >= 400)";

    private ReportSummaries() {
    }

    /** Feedback received since {@code since}, per provider. */
    static Map<String, ProviderReports<FeedbackSummary>> feedback(JdbcTemplate jdbc, Instant since) {
        Split<FeedbackSummary> split = new Split<>();
        jdbc.query("SELECT provider_id, wallet IS NOT NULL AS verified, outcome, reason, COUNT(*) AS reports "
                + "FROM marketplace_feedback WHERE received_at >= ? GROUP BY 1, 2, 3, 4", rs -> {
                    split.merge(rs.getString("provider_id"), rs.getBoolean("verified"),
                            FeedbackSummary.counted(rs.getString("outcome"), rs.getString("reason"),
                                    rs.getLong("reports")), FeedbackSummary::plus);
                }, JdbcProviderDirectoryStore.time(since));
        jdbc.query("SELECT provider_id, COUNT(*) AS reports, SUM(CASE WHEN outcome = 'success' THEN 1 ELSE 0 END) "
                + "AS good FROM marketplace_feedback WHERE received_at >= ? AND wallet IS NOT NULL "
                + "GROUP BY provider_id, wallet", rs -> {
                    split.vote(rs.getString("provider_id"), rs.getLong("good"), rs.getLong("reports"));
                }, JdbcProviderDirectoryStore.time(since));
        return split.reports(FeedbackSummary.NONE);
    }

    /** Reports of paid requests received since {@code since}, per provider. */
    static Map<String, ProviderReports<TelemetrySummary>> telemetry(JdbcTemplate jdbc, Instant since) {
        Split<TelemetrySummary> split = new Split<>();
        jdbc.query("SELECT provider_id, wallet IS NOT NULL AS verified, COUNT(*) AS requests, "
                + "SUM(CASE WHEN " + FAILED + " THEN 1 ELSE 0 END) AS failures, "
                + "SUM(CASE WHEN http_status IS NULL THEN 1 ELSE 0 END) AS unanswered, "
                + "PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY latency_ms) AS p50, "
                + "PERCENTILE_DISC(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95, "
                + "SUM(cost) AS volume FROM marketplace_telemetry WHERE received_at >= ? GROUP BY 1, 2", rs -> {
                    BigDecimal volume = rs.getBigDecimal("volume");
                    split.merge(rs.getString("provider_id"), rs.getBoolean("verified"), new TelemetrySummary(
                            rs.getLong("requests"), rs.getLong("failures"), Map.of(), rs.getLong("unanswered"),
                            rs.getLong("p50"), rs.getLong("p95"),
                            volume == null ? BigInteger.ZERO : volume.toBigIntegerExact()), (a, b) -> b);
                }, JdbcProviderDirectoryStore.time(since));
        Split<Map<Integer, Long>> failures = new Split<>();
        jdbc.query("SELECT provider_id, wallet IS NOT NULL AS verified, http_status, COUNT(*) AS requests "
                + "FROM marketplace_telemetry WHERE received_at >= ? AND http_status >= 400 GROUP BY 1, 2, 3", rs -> {
                    failures.merge(rs.getString("provider_id"), rs.getBoolean("verified"),
                            Map.of(rs.getInt("http_status"), rs.getLong("requests")), ReportSummaries::union);
                }, JdbcProviderDirectoryStore.time(since));
        failures.verified.forEach((provider, byStatus) -> split.verified.computeIfPresent(provider,
                (k, summary) -> summary.withFailures(byStatus)));
        failures.unverified.forEach((provider, byStatus) -> split.unverified.computeIfPresent(provider,
                (k, summary) -> summary.withFailures(byStatus)));
        jdbc.query("SELECT provider_id, COUNT(*) AS requests, SUM(CASE WHEN " + FAILED + " THEN 0 ELSE 1 END) AS good "
                + "FROM marketplace_telemetry WHERE received_at >= ? AND wallet IS NOT NULL "
                + "GROUP BY provider_id, wallet", rs -> {
                    split.vote(rs.getString("provider_id"), rs.getLong("good"), rs.getLong("requests"));
                }, JdbcProviderDirectoryStore.time(since));
        return split.reports(TelemetrySummary.NONE);
    }

    private static Map<Integer, Long> union(Map<Integer, Long> a, Map<Integer, Long> b) {
        Map<Integer, Long> both = new HashMap<>(a);
        both.putAll(b);
        return both;
    }

    /** Per provider: the verified part, the wallets' votes, the unverified part. */
    private static final class Split<S> {
        final Map<String, S> verified = new HashMap<>();
        final Map<String, S> unverified = new HashMap<>();
        final Map<String, WalletVotes> votes = new HashMap<>();

        void merge(String providerId, boolean isVerified, S part, BinaryOperator<S> plus) {
            (isVerified ? verified : unverified).merge(providerId, part, plus);
        }

        void vote(String providerId, long good, long total) {
            votes.merge(providerId, WalletVotes.of(good, total), WalletVotes::plus);
        }

        Map<String, ProviderReports<S>> reports(S none) {
            Set<String> providers = new HashSet<>(verified.keySet());
            providers.addAll(unverified.keySet());
            Map<String, ProviderReports<S>> reports = new HashMap<>();
            for (String provider : providers) {
                reports.put(provider, new ProviderReports<>(verified.getOrDefault(provider, none),
                        votes.getOrDefault(provider, WalletVotes.NONE), unverified.getOrDefault(provider, none)));
            }
            return reports;
        }
    }
}
