package io.chanledger.projections.marketplace;

import java.time.Instant;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What each health check measured: the time of the last check, the last latency and the run of
 * failures. Written on every poll straight into the read model rather than as events, since a
 * poll that changes nothing is not a fact worth keeping; what does change (online, offline,
 * prices) is recorded as Provider events.
 */
public class ProviderHealthStore {

    private final JdbcTemplate jdbc;

    public ProviderHealthStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** A successful check: resets the failure run. */
    public void recordSuccess(String providerId, Instant at, long latencyMs) {
        int updated = jdbc.update("UPDATE marketplace_provider_health SET last_checked = ?, latency_ms = ?, "
                + "consecutive_failures = 0, last_error = NULL WHERE provider_id = ?",
                JdbcProviderDirectoryStore.time(at), latencyMs, providerId);
        if (updated == 0) {
            jdbc.update("INSERT INTO marketplace_provider_health (provider_id, last_checked, latency_ms, "
                    + "consecutive_failures, last_error) VALUES (?, ?, ?, 0, NULL)",
                    providerId, JdbcProviderDirectoryStore.time(at), latencyMs);
        }
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
        Integer failures = jdbc.queryForObject(
                "SELECT consecutive_failures FROM marketplace_provider_health WHERE provider_id = ?",
                Integer.class, providerId);
        return failures == null ? 1 : failures;
    }

    /** Counts the polls of a round as one change of the read model. */
    public void markChanged() {
        JdbcProviderDirectoryStore.markChanged(jdbc);
    }
}
