package io.chanledger.projections.marketplace;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.chanledger.domain.provider.ModelPrice;
import io.chanledger.domain.provider.UnitPrice;
import io.chanledger.domain.provider.ProviderProfile;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The directory in PostgreSQL (or the embedded store). Upserts are an UPDATE followed by an INSERT
 * when nothing was updated, which both databases run the same way; each handler runs in the
 * processor's transaction, so nobody else writes the same provider in between.
 */
public class JdbcProviderDirectoryStore implements ProviderDirectoryStore {

    static final String VERSION_NAME = "providers";

    /** How a Java value is written to its column and read back; null is written as NULL. */
    private record SqlForm<T>(Function<T, Object> writer, Reader<T> reader) {

        Object write(T value) {
            return value == null ? null : writer.apply(value);
        }
    }

    @FunctionalInterface
    private interface Reader<T> {
        T read(ResultSet rs, String column) throws SQLException;
    }

    /**
     * The profile's own mapper: members left out when not given, and a member this version does not
     * know (written by a newer one sharing the database) ignored rather than failing the catalog.
     */
    private static final ObjectMapper PROFILE_JSON = JsonMapper.builder()
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    private static final SqlForm<String> TEXT = new SqlForm<>(v -> v, ResultSet::getString);
    private static final SqlForm<Boolean> FLAG = new SqlForm<>(v -> v, ResultSet::getBoolean);
    private static final SqlForm<Instant> TIME = new SqlForm<>(JdbcProviderDirectoryStore::time,
            JdbcProviderDirectoryStore::instant);
    /** A BIGINT column that may be null. */
    private static final SqlForm<Integer> OPTIONAL_INT = new SqlForm<>(v -> v, (rs, c) -> {
        long value = rs.getLong(c);
        return rs.wasNull() ? null : Math.toIntExact(value);
    });
    /** Read without the trailing zeros of the column's scale, as the score was given. */
    private static final SqlForm<BigDecimal> SCORE = new SqlForm<>(v -> v, (rs, c) -> {
        BigDecimal value = rs.getBigDecimal(c);
        return value == null ? null : value.stripTrailingZeros();
    });
    /** Comma-separated wire spellings. */
    private static final SqlForm<List<String>> CODES = new SqlForm<>(v -> String.join(",", v), (rs, c) -> {
        String value = rs.getString(c);
        return value == null || value.isEmpty() ? List.of() : Arrays.asList(value.split(","));
    });

    /** One column of marketplace_provider: its name, its form, and the row's value it holds. */
    private record Column<T>(String name, SqlForm<T> form, Function<ProviderRow, T> getter,
                             BiConsumer<ProviderRow.Builder, T> setter) {

        Object value(ProviderRow row) {
            return form.write(getter.apply(row));
        }

        void read(ResultSet rs, ProviderRow.Builder row) throws SQLException {
            setter.accept(row, form.reader().read(rs, name));
        }
    }

    private static final Column<String> KEY = new Column<>("provider_id", TEXT, ProviderRow::providerId,
            ProviderRow.Builder::providerId);

    /**
     * Every column of a row, the key last (where the UPDATE's WHERE takes it): the one place that
     * pairs a column with its component, for the select list, the writes and the reading.
     */
    private static final List<Column<?>> COLUMNS = List.of(
            new Column<>("address", TEXT, ProviderRow::address, ProviderRow.Builder::address),
            new Column<>("name", TEXT, ProviderRow::name, ProviderRow.Builder::name),
            new Column<>("description", TEXT, ProviderRow::description, ProviderRow.Builder::description),
            new Column<>("api_url", TEXT, ProviderRow::apiUrl, ProviderRow.Builder::apiUrl),
            new Column<>("category", TEXT, ProviderRow::category, ProviderRow.Builder::category),
            new Column<>("additional_categories", CODES, ProviderRow::additionalCategories,
                    ProviderRow.Builder::additionalCategories),
            new Column<>("tier", TEXT, ProviderRow::tier, ProviderRow.Builder::tier),
            new Column<>("hotkey", TEXT, ProviderRow::hotkey, ProviderRow.Builder::hotkey),
            new Column<>("uid", OPTIONAL_INT, ProviderRow::uid, ProviderRow.Builder::uid),
            new Column<>("docs_url", TEXT, ProviderRow::docsUrl, ProviderRow.Builder::docsUrl),
            new Column<>("registered_at", TIME, ProviderRow::registeredAt, ProviderRow.Builder::registeredAt),
            new Column<>("approval", TEXT, ProviderRow::approval, ProviderRow.Builder::approval),
            new Column<>("approval_changed_at", TIME, ProviderRow::approvalChangedAt,
                    ProviderRow.Builder::approvalChangedAt),
            new Column<>("suspension_reason", TEXT, ProviderRow::suspensionReason,
                    ProviderRow.Builder::suspensionReason),
            new Column<>("score", SCORE, ProviderRow::score, ProviderRow.Builder::score),
            new Column<>("online", FLAG, ProviderRow::online, ProviderRow.Builder::online),
            new Column<>("online_changed_at", TIME, ProviderRow::onlineChangedAt, ProviderRow.Builder::onlineChangedAt),
            new Column<>("offline_reason", TEXT, ProviderRow::offlineReason, ProviderRow.Builder::offlineReason),
            new Column<>("models_published_at", TIME, ProviderRow::modelsPublishedAt,
                    ProviderRow.Builder::modelsPublishedAt),
            new Column<>("inference_online", FLAG, ProviderRow::inferenceOnline, ProviderRow.Builder::inferenceOnline),
            new Column<>("inference_changed_at", TIME, ProviderRow::inferenceChangedAt,
                    ProviderRow.Builder::inferenceChangedAt),
            KEY);

    private static final String UPDATE = "UPDATE marketplace_provider SET "
            + COLUMNS.subList(0, COLUMNS.size() - 1).stream().map(c -> c.name() + " = ?")
                    .collect(Collectors.joining(", ")) + " WHERE " + KEY.name() + " = ?";
    private static final String INSERT = "INSERT INTO marketplace_provider (" + columns("") + ") VALUES ("
            + String.join(", ", Collections.nCopies(COLUMNS.size(), "?")) + ")";

    private final JdbcTemplate jdbc;

    public JdbcProviderDirectoryStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Optional<ProviderRow> find(String providerId) {
        return jdbc.query("SELECT " + columns("") + " FROM marketplace_provider WHERE provider_id = ?",
                (rs, n) -> row(rs), providerId).stream().findFirst();
    }

    @Override
    public void save(ProviderRow row) {
        Object[] values = COLUMNS.stream().map(c -> c.value(row)).toArray();
        if (jdbc.update(UPDATE, values) == 0) {
            jdbc.update(INSERT, values);
        }
    }

    @Override
    public void saveProfile(String providerId, ProviderProfile profile) {
        jdbc.update("DELETE FROM marketplace_provider_profile WHERE provider_id = ?", providerId);
        jdbc.update("INSERT INTO marketplace_provider_profile (provider_id, profile) VALUES (?, ?)", providerId,
                profileJson(profile));
    }

    /**
     * The profile as one JSON text, by its members' names: a member added to {@link ProviderProfile}
     * is stored and read back with no column of its own.
     */
    static String profileJson(ProviderProfile profile) {
        try {
            return PROFILE_JSON.writeValueAsString(profile);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a provider profile could not be written as JSON", e);
        }
    }

    /** A profile written by {@link #profileJson}; no row (a provider registered before profiles) reads as none. */
    static ProviderProfile profile(String json) {
        if (json == null) {
            return ProviderProfile.NONE;
        }
        try {
            return PROFILE_JSON.readValue(json, ProviderProfile.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored provider profile is not the profile's JSON", e);
        }
    }

    @Override
    public void replaceModels(String providerId, List<ModelPrice> models) {
        jdbc.update("DELETE FROM marketplace_provider_model WHERE provider_id = ?", providerId);
        jdbc.batchUpdate("INSERT INTO marketplace_provider_model (provider_id, model_id, name, input_per_1k, "
                        + "output_per_1k, price_kind, unit, per_unit, min_units, max_units) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                models.stream().map(m -> {
                    UnitPrice units = m.unitPrice();
                    return new Object[]{providerId, m.id(), m.name(), new BigDecimal(m.inputPer1kTokens()),
                            new BigDecimal(m.outputPer1kTokens()), m.kind().wire(),
                            units == null ? null : units.unit(),
                            units == null ? null : new BigDecimal(units.perUnit()),
                            units == null ? null : units.minUnits(), units == null ? null : units.maxUnits()};
                }).toList());
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

    /** The directory's columns, each {@code alias.name} when an alias is given, for a select list. */
    static String columns(String alias) {
        return COLUMNS.stream().map(c -> alias.isEmpty() ? c.name() : alias + "." + c.name())
                .collect(Collectors.joining(", "));
    }

    /** The row at the result set's current position, read from the columns {@link #columns} selects. */
    static ProviderRow row(ResultSet rs) throws SQLException {
        ProviderRow.Builder row = ProviderRow.builder();
        for (Column<?> column : COLUMNS) {
            column.read(rs, row);
        }
        return row.build();
    }

    static OffsetDateTime time(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
