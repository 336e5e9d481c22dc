package io.chanledger.api.marketplace.directory;

import io.chanledger.domain.provider.ProviderCategory;
import io.chanledger.domain.provider.ProviderTier;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The filters of {@code GET /api/mcp/providers}, validated, and the format of the answer.
 * {@code model} is kept lowercased; {@code minScore} null means no minimum. A record, so equal
 * queries share one cached response.
 */
record ProviderQuery(String category, String model, String tier, BigDecimal minScore, int limit, boolean onlineOnly,
                     Format format) {

    /** {@code full}: every field of docs/protocol.md §2.2; {@code compact}: what an agent needs to choose and pay. */
    enum Format {
        FULL, COMPACT;

        String code() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    static final int MAX_LIMIT = 200;
    static final int MAX_MODEL_LENGTH = 200;
    static final ProviderQuery DEFAULT = new ProviderQuery(null, null, null, null, MAX_LIMIT, true, Format.FULL);

    /** What {@code _filters} says: every parameter, its type and what it allows. */
    static final Map<String, Object> DESCRIPTION = describe();

    static ProviderQuery parse(String category, String model, String tier, String minScore, String limit, String online,
                               String format) {
        String categoryValue = null;
        if (category != null) {
            categoryValue = ProviderCategory.fromCode(category).map(ProviderCategory::code).orElseThrow(() ->
                    FieldProblem.parameter("category", "unknown category '" + clip(category) + "'; allowed: "
                            + String.join(", ", ProviderCategory.codes()), ProviderCategory.codes()));
        }
        String modelValue = null;
        if (model != null) {
            if (model.isBlank() || model.length() > MAX_MODEL_LENGTH) {
                throw FieldProblem.parameter("model", "must be 1 to " + MAX_MODEL_LENGTH
                        + " characters of a model id or name", "any text of 1 to " + MAX_MODEL_LENGTH + " characters");
            }
            modelValue = model.toLowerCase(Locale.ROOT);
        }
        String tierValue = null;
        if (tier != null) {
            tierValue = ProviderTier.fromCode(tier).map(ProviderTier::code).orElseThrow(() ->
                    FieldProblem.parameter("tier", "unknown tier '" + clip(tier) + "'; allowed: "
                            + String.join(", ", ProviderTier.codes()), ProviderTier.codes()));
        }
        BigDecimal minScoreValue = null;
        if (minScore != null) {
            minScoreValue = number(minScore);
            if (minScoreValue == null || minScoreValue.signum() < 0 || minScoreValue.compareTo(BigDecimal.ONE) > 0) {
                throw FieldProblem.parameter("minScore", "must be a number from 0 to 1, got '" + clip(minScore) + "'",
                        ordered("minimum", 0, "maximum", 1));
            }
        }
        int limitValue = MAX_LIMIT;
        if (limit != null) {
            Integer parsed = integer(limit);
            if (parsed == null || parsed < 1 || parsed > MAX_LIMIT) {
                throw FieldProblem.parameter("limit", "must be an integer from 1 to " + MAX_LIMIT + ", got '"
                        + clip(limit) + "'", ordered("minimum", 1, "maximum", MAX_LIMIT, "default", MAX_LIMIT));
            }
            limitValue = parsed;
        }
        boolean onlineOnly = true;
        if (online != null) {
            onlineOnly = switch (online) {
                case "true" -> true;
                case "false" -> false;
                default -> throw FieldProblem.parameter("online", "must be true or false, got '" + clip(online) + "'",
                        List.of("true", "false"));
            };
        }
        Format formatValue = Format.FULL;
        if (format != null) {
            formatValue = switch (format) {
                case "full" -> Format.FULL;
                case "compact" -> Format.COMPACT;
                default -> throw FieldProblem.parameter("format", "must be full or compact, got '" + clip(format) + "'",
                        List.of("full", "compact"));
            };
        }
        return new ProviderQuery(categoryValue, modelValue, tierValue, minScoreValue, limitValue, onlineOnly,
                formatValue);
    }

    private static BigDecimal number(String text) {
        if (text.isEmpty() || text.length() > 32 || !text.matches("[0-9]*\\.?[0-9]+|[0-9]+\\.")) {
            return null;
        }
        return new BigDecimal(text);
    }

    private static Integer integer(String text) {
        if (text.isEmpty() || text.length() > 9 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return null;
        }
        return Integer.parseInt(text);
    }

    private static String clip(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }

    /** Maps written in the given order, so the same filters give the same bytes in every instance. */
    static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return Collections.unmodifiableMap(map);
    }

    private static Map<String, Object> describe() {
        Map<String, Object> filters = new LinkedHashMap<>();
        filters.put("category", ordered("type", "string", "values", ProviderCategory.codes(),
                "description", "the provider's main category or one of its additional categories"));
        filters.put("model", ordered("type", "string",
                "description", "partial, case-insensitive match on a model's name or id"));
        filters.put("tier", ordered("type", "string", "values", ProviderTier.codes()));
        filters.put("minScore", ordered("type", "number", "minimum", 0, "maximum", 1,
                "description", "minimum incentive score"));
        filters.put("limit", ordered("type", "integer", "minimum", 1, "maximum", MAX_LIMIT, "default", MAX_LIMIT));
        filters.put("online", ordered("type", "boolean", "default", true,
                "description", "false includes offline providers"));
        filters.put("format", ordered("type", "string", "values", List.of("full", "compact"), "default", "full",
                "description", "compact keeps id, name, category, apiUrl, providerAddress, protocol, "
                        + "status.online, status.latencyMs, each model's id and pricing and qualityScore, at the same paths as "
                        + "full, so that a long list fits in a model's context"));
        return Collections.unmodifiableMap(filters);
    }
}
