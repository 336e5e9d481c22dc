package io.chanledger.projections.marketplace;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Agents' clients' reports of their paid requests, one row each: the provider, when it was
 * received, the latency the agent observed, the HTTP status (none when the request got no HTTP
 * answer) and what the request cost, and for a verified report the wallet that signed it, as for
 * feedback ({@link ProviderFeedbackStore}); an unverified one keeps nothing about who sent it (no
 * agent id, no address). Written straight to the table, like feedback: a report is a signal about
 * a provider, not a decision of it; rows past the telemetry window are deleted. The directory
 * reads the aggregates per provider (see {@link CatalogReader}).
 */
public class ProviderTelemetryStore {

    /**
     * One paid request as reported: {@code httpStatus} null when it got no HTTP answer, {@code cost}
     * in USDC base units, {@code wallet} (lowercase) when verified, else null.
     */
    public record Sample(String providerId, Instant receivedAt, long latencyMs, Integer httpStatus, BigInteger cost,
                         String wallet) {
    }

    private final JdbcTemplate jdbc;

    public ProviderTelemetryStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public void record(List<Sample> samples) {
        if (samples.isEmpty()) {
            return;
        }
        jdbc.batchUpdate("INSERT INTO marketplace_telemetry (provider_id, received_at, latency_ms, http_status, cost, "
                + "wallet) VALUES (?, ?, ?, ?, ?, ?)", samples.stream().map(s -> new Object[]{s.providerId(),
                JdbcProviderDirectoryStore.time(s.receivedAt()), s.latencyMs(), s.httpStatus(),
                new BigDecimal(s.cost()), s.wallet()}).toList());
    }

    /** Deletes the reports received before {@code cutoff}; returns how many. */
    public int deleteBefore(Instant cutoff) {
        return jdbc.update("DELETE FROM marketplace_telemetry WHERE received_at < ?",
                JdbcProviderDirectoryStore.time(cutoff));
    }

    /** Counts the reports as one change of the read model, so every instance shows them. */
    public void markChanged() {
        JdbcProviderDirectoryStore.markChanged(jdbc);
    }
}
