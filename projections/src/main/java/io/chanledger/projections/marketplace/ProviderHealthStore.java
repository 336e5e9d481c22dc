package io.chanledger.projections.marketplace;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.lang.Nullable;

/**
 * What each health check measured: the time of the last check, the last latency and the run of
 * failures. Written on every poll straight into the read model rather than as events, since a
 * poll that changes nothing is not a fact worth keeping; what does change (online, offline,
 * inference up or down, prices) is recorded as Provider events. A check has two sides: pricing
 * ({@code consecutive_failures}, {@code last_error}) and inference ({@code inference_failures},
 * {@code inference_error}).
 */
public class ProviderHealthStore {

    /** How long each check's outcome is kept for the latency history: a day, about 1,440 checks at the default interval. */
    public static final Duration LATENCY_HISTORY = Duration.ofHours(24);

    /** One check's outcome: its latency when it succeeded. */
    public record LatencySample(Instant at, @Nullable Long latencyMs, boolean ok) {
    }

    private final JdbcTemplate jdbc;

    public ProviderHealthStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * A check whose pricing side answered: resets that side's failure run. The check counts as
     * passed in the history when the inference side was up too ({@code passed}).
     */
    public void recordSuccess(String providerId, Instant at, long latencyMs, boolean passed) {
        int updated = jdbc.update("UPDATE marketplace_provider_health SET last_checked = ?, latency_ms = ?, "
                + "consecutive_failures = 0, last_error = NULL WHERE provider_id = ?",
                JdbcProviderDirectoryStore.time(at), latencyMs, providerId);
        if (updated == 0) {
            jdbc.update("INSERT INTO marketplace_provider_health (provider_id, last_checked, latency_ms, "
                    + "consecutive_failures, last_error) VALUES (?, ?, ?, 0, NULL)",
                    providerId, JdbcProviderDirectoryStore.time(at), latencyMs);
        }
        recordSample(providerId, at, latencyMs, passed);
    }

    /** A failed check; returns the length of the failure run it extends. The last latency stays. */
    public int recordFailure(String providerId, Instant at, String error) {
        String message = error == null ? "no answer" : error.length() > 500 ? error.substring(0, 500) : error;
        int updated = jdbc.update("UPDATE marketplace_provider_health SET last_checked = ?, "
                + "consecutive_failures = consecutive_failures + 1, last_error = ? WHERE provider_id = ?",
                JdbcProviderDirectoryStore.time(at), message, providerId);
        if (updated == 0) {
            jdbc.update("INSERT INTO marketplace_provider_health (provider_id, last_checked, latency_ms, "
                    + "consecutive_failures, last_error) VALUES (?, ?, NULL, 1, ?)",
                    providerId, JdbcProviderDirectoryStore.time(at), message);
        }
        recordSample(providerId, at, null, false);
        Integer failures = jdbc.queryForObject(
                "SELECT consecutive_failures FROM marketplace_provider_health WHERE provider_id = ?",
                Integer.class, providerId);
        return failures == null ? 1 : failures;
    }

    /**
     * What the same check found of the inference side: up ({@code failure} null), which resets its
     * failure run, or down for {@code failure}, which extends it. Answers the run's length. Called
     * after {@link #recordSuccess} or {@link #recordFailure} of the same check, which made the row.
     */
    public int recordInference(String providerId, String failure) {
        if (failure == null) {
            jdbc.update("UPDATE marketplace_provider_health SET inference_failures = 0, inference_error = NULL "
                    + "WHERE provider_id = ?", providerId);
            return 0;
        }
        String message = failure.length() > 500 ? failure.substring(0, 500) : failure;
        jdbc.update("UPDATE marketplace_provider_health SET inference_failures = inference_failures + 1, "
                + "inference_error = ? WHERE provider_id = ?", message, providerId);
        Integer failures = jdbc.queryForObject(
                "SELECT inference_failures FROM marketplace_provider_health WHERE provider_id = ?",
                Integer.class, providerId);
        return failures == null ? 1 : failures;
    }

    /** The provider's check outcomes of the last {@link #LATENCY_HISTORY} before {@code now}, oldest first, at most {@code limit}. */
    public List<LatencySample> latencyHistory(String providerId, Instant now, int limit) {
        List<LatencySample> newestFirst = jdbc.query("SELECT checked_at, latency_ms, ok FROM marketplace_provider_latency "
                        + "WHERE provider_id = ? AND checked_at >= ? ORDER BY checked_at DESC LIMIT ?",
                (rs, row) -> new LatencySample(JdbcProviderDirectoryStore.instant(rs, "checked_at"),
                        rs.getObject("latency_ms") == null ? null : rs.getLong("latency_ms"), rs.getBoolean("ok")),
                providerId, JdbcProviderDirectoryStore.time(now.minus(LATENCY_HISTORY)), limit);
        List<LatencySample> samples = new ArrayList<>(newestFirst);
        Collections.reverse(samples);
        return samples;
    }

    /** Keeps a check's outcome and forgets the provider's outcomes older than the history. */
    private void recordSample(String providerId, Instant at, Long latencyMs, boolean ok) {
        jdbc.update("DELETE FROM marketplace_provider_latency WHERE provider_id = ? AND checked_at < ?",
                providerId, JdbcProviderDirectoryStore.time(at.minus(LATENCY_HISTORY)));
        try {
            jdbc.update("INSERT INTO marketplace_provider_latency (provider_id, checked_at, latency_ms, ok) "
                    + "VALUES (?, ?, ?, ?)", providerId, JdbcProviderDirectoryStore.time(at), latencyMs, ok);
        } catch (DuplicateKeyException sameInstant) {
            // two checks of one provider in the same instant (a registration's test and a poll): the first is kept
        }
    }

    /** Counts the polls of a round as one change of the read model. */
    public void markChanged() {
        JdbcProviderDirectoryStore.markChanged(jdbc);
    }
}
