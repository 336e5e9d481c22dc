package io.chanledger.projections.marketplace;

import io.chanledger.domain.provider.ModelPrice;
import io.chanledger.domain.provider.ProviderProfile;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The directory in PostgreSQL (or the embedded store). Upserts are an UPDATE followed by an INSERT
 * when nothing was updated, which both databases run the same way; each handler runs in the
 * processor's transaction, so nobody else writes the same provider in between.
 */
public class JdbcProviderDirectoryStore implements ProviderDirectoryStore {

    static final String VERSION_NAME = "providers";

    private final JdbcTemplate jdbc;

    public JdbcProviderDirectoryStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Optional<ProviderRow> find(String providerId) {
        return jdbc.query("SELECT * FROM marketplace_provider WHERE provider_id = ?",
                (rs, n) -> row(rs), providerId).stream().findFirst();
    }

    @Override
    public void save(ProviderRow row) {
        Object[] values = {row.address(), row.name(), row.description(), row.apiUrl(), row.category(),
                String.join(",", row.additionalCategories()), row.tier(), row.hotkey(), row.uid(), row.docsUrl(),
                time(row.registeredAt()), row.approval(), time(row.approvalChangedAt()), row.suspensionReason(),
                row.score(), row.online(), time(row.onlineChangedAt()), row.offlineReason(),
                time(row.modelsPublishedAt()), row.inferenceOnline(), time(row.inferenceChangedAt()),
                row.providerId()};
        int updated = jdbc.update("UPDATE marketplace_provider SET address = ?, name = ?, description = ?, api_url = ?, "
                + "category = ?, additional_categories = ?, tier = ?, hotkey = ?, uid = ?, docs_url = ?, "
                + "registered_at = ?, approval = ?, approval_changed_at = ?, suspension_reason = ?, score = ?, "
                + "online = ?, online_changed_at = ?, offline_reason = ?, models_published_at = ?, "
                + "inference_online = ?, inference_changed_at = ? WHERE provider_id = ?", values);
        if (updated == 0) {
            jdbc.update("INSERT INTO marketplace_provider (address, name, description, api_url, category, "
                    + "additional_categories, tier, hotkey, uid, docs_url, registered_at, approval, approval_changed_at, "
                    + "suspension_reason, score, online, online_changed_at, offline_reason, models_published_at, "
                    + "inference_online, inference_changed_at, provider_id) "
                    + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", values);
        }
    }

    @Override
    public void saveProfile(String providerId, ProviderProfile profile) {
        jdbc.update("DELETE FROM marketplace_provider_profile WHERE provider_id = ?", providerId);
        jdbc.update("INSERT INTO marketplace_provider_profile (provider_id, logo_url, website, supports_streaming) "
                + "VALUES (?, ?, ?, ?)", providerId, profile.logoUrl(), profile.website(), profile.supportsStreaming());
    }

    @Override
    public void replaceModels(String providerId, List<ModelPrice> models) {
        jdbc.update("DELETE FROM marketplace_provider_model WHERE provider_id = ?", providerId);
        jdbc.batchUpdate("INSERT INTO marketplace_provider_model (provider_id, model_id, name, input_per_1k, "
                        + "output_per_1k) VALUES (?, ?, ?, ?, ?)",
                models.stream().map(m -> new Object[]{providerId, m.id(), m.name(),
                        new BigDecimal(m.inputPer1kTokens()), new BigDecimal(m.outputPer1kTokens())}).toList());
    }

    @Override
    public void appendHistory(String providerId, HistoryEntry entry) {
        jdbc.update("INSERT INTO marketplace_provider_history (provider_id, sequence_number, occurred_at, kind, detail) "
                        + "SELECT ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM marketplace_provider_history "
                        + "WHERE provider_id = ? AND sequence_number = ?)",
                providerId, entry.sequence(), time(entry.at()), entry.kind(), entry.detail(), providerId,
                entry.sequence());
    }

    @Override
    public void markChanged() {
        markChanged(jdbc);
    }

    static void markChanged(JdbcTemplate jdbc) {
        jdbc.update("UPDATE marketplace_read_version SET version = version + 1 WHERE name = ?", VERSION_NAME);
    }

    @Override
    public void clear() {
        jdbc.update("DELETE FROM marketplace_provider_history");
        jdbc.update("DELETE FROM marketplace_provider_model");
        jdbc.update("DELETE FROM marketplace_provider_profile");
        jdbc.update("DELETE FROM marketplace_provider");
    }

    static ProviderRow row(ResultSet rs) throws SQLException {
        String additional = rs.getString("additional_categories");
        long uid = rs.getLong("uid");
        Integer uidValue = rs.wasNull() ? null : Math.toIntExact(uid);
        BigDecimal score = rs.getBigDecimal("score");
        return new ProviderRow(rs.getString("provider_id"), rs.getString("address"), rs.getString("name"),
                rs.getString("description"), rs.getString("api_url"), rs.getString("category"),
                additional == null || additional.isEmpty() ? List.of() : Arrays.asList(additional.split(",")),
                rs.getString("tier"), rs.getString("hotkey"), uidValue, rs.getString("docs_url"),
                instant(rs, "registered_at"), rs.getString("approval"), instant(rs, "approval_changed_at"),
                rs.getString("suspension_reason"), score == null ? null : score.stripTrailingZeros(),
                rs.getBoolean("online"), instant(rs, "online_changed_at"), rs.getString("offline_reason"),
                instant(rs, "models_published_at"), rs.getBoolean("inference_online"),
                instant(rs, "inference_changed_at"));
    }

    static OffsetDateTime time(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
