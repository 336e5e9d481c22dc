package io.chanledger.projections.marketplace;

import java.time.Instant;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Agents' reports on providers, one row each. A verified report keeps the wallet that signed it,
 * one with a channel with the provider (its channel is public on chain anyway), so that each wallet
 * counts once; an unverified one keeps nothing about who sent it. Written straight to the table
 * rather than as events: a report is a signal about a provider, not a decision of it, and rows past
 * the feedback window are deleted. The directory reads the counts per provider (see
 * {@link CatalogReader}).
 */
public class ProviderFeedbackStore {

    private final JdbcTemplate jdbc;

    public ProviderFeedbackStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * {@code reason} only with a failure, and may be null then too; {@code wallet} (lowercase) for
     * a verified report, null for an unverified one.
     */
    public void record(String providerId, String outcome, String reason, Instant at, String wallet) {
        jdbc.update("INSERT INTO marketplace_feedback (provider_id, received_at, outcome, reason, wallet) "
                + "VALUES (?, ?, ?, ?, ?)", providerId, JdbcProviderDirectoryStore.time(at), outcome, reason, wallet);
    }

    /** Deletes the reports received before {@code cutoff}; returns how many. */
    public int deleteBefore(Instant cutoff) {
        return jdbc.update("DELETE FROM marketplace_feedback WHERE received_at < ?",
                JdbcProviderDirectoryStore.time(cutoff));
    }

    /** Counts the reports as one change of the read model, so every instance shows them. */
    public void markChanged() {
        JdbcProviderDirectoryStore.markChanged(jdbc);
    }
}
