package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.http.ApiProblem;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.provider.ProviderCategory;
import io.chanledger.domain.provider.ProviderProfile;
import io.chanledger.domain.provider.ProviderTier;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;

/** Turns a registration body into a {@link RegistrationRequest}, or a 400 naming the first field at fault. */
final class RegistrationRequestParser {

    static final int MAX_NAME = 100;
    static final int MAX_DESCRIPTION = 2000;
    static final int MAX_CONTACT = 320;
    static final int MAX_URL = 2048;
    static final int MAX_EMAIL = 254;
    /** One @, something before it, a dotted domain after it, no white space: what a form checks, not RFC 5322. */
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]{1,64}@[^@\\s.]+(\\.[^@\\s.]+)+");
    static final int MAX_ADDITIONAL_CATEGORIES = 12;
    private static final Pattern NONCE = Pattern.compile("[A-Za-z0-9_-]{8,64}");
    private static final Pattern SS58 = Pattern.compile("[1-9A-HJ-NP-Za-km-z]{46,48}");

    private RegistrationRequestParser() {
    }

    static RegistrationRequest parse(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "malformed_body",
                    "the registration must be a JSON object");
        }
        String name = text(body, "name", true, MAX_NAME);
        String description = text(body, "description", true, MAX_DESCRIPTION);
        String signedApiUrl = text(body, "apiUrl", true, MAX_URL);
        URI apiUrl = httpUrl("apiUrl", signedApiUrl, true);
        String signedAddress = text(body, "providerAddress", true, 42);
        String address;
        try {
            address = Hex.normalizeAddress(signedAddress);
        } catch (IllegalArgumentException e) {
            throw FieldProblem.field("providerAddress", e.getMessage());
        }
        ProviderCategory category = category("category", text(body, "category", true, 32));
        List<ProviderCategory> additional = additionalCategories(body.get("additionalCategories"), category);
        String tierText = text(body, "tier", false, 16);
        ProviderTier tier = tierText == null ? ProviderTier.COMMUNITY : ProviderTier.fromCode(tierText)
                .orElseThrow(() -> FieldProblem.field("tier", "must be one of " + ProviderTier.codes()));
        String hotkey = text(body, "hotkey", false, 48);
        Integer uid = uid(body.get("uid"));
        if (tier == ProviderTier.BITTENSOR) {
            if (hotkey == null) {
                throw FieldProblem.field("hotkey", "a bittensor provider gives its hotkey (SS58 address)");
            }
            if (!SS58.matcher(hotkey).matches()) {
                throw FieldProblem.field("hotkey", "must be an SS58 address (46 to 48 base58 characters)");
            }
            if (uid == null) {
                throw FieldProblem.field("uid", "a bittensor provider gives its uid on the subnet");
            }
        } else if (hotkey != null || uid != null) {
            throw FieldProblem.field(hotkey != null ? "hotkey" : "uid", "only bittensor providers carry a hotkey and uid");
        }
        String contact = text(body, "contact", false, MAX_CONTACT);
        String contactEmail = text(body, "contactEmail", false, MAX_EMAIL);
        if (contactEmail != null && !EMAIL.matcher(contactEmail).matches()) {
            throw FieldProblem.field("contactEmail", "must be an e-mail address such as ops@acme.example");
        }
        String docsUrl = optionalUrl(body, "docsUrl");
        ProviderProfile profile = new ProviderProfile(optionalUrl(body, "logoUrl"), optionalUrl(body, "website"),
                optionalBoolean(body, "supportsStreaming"));
        String signatureText = text(body, "signature", true, 132);
        byte[] signature;
        try {
            signature = Hex.decode(signatureText, 65);
        } catch (IllegalArgumentException e) {
            throw FieldProblem.field("signature", "must be 0x followed by 130 hex digits (65 bytes r, s, v)");
        }
        String nonce = text(body, "nonce", true, 64);
        if (!NONCE.matcher(nonce).matches()) {
            throw FieldProblem.field("nonce", "must be 8 to 64 characters of A-Z, a-z, 0-9, '_' or '-'");
        }
        String issuedText = text(body, "issuedAt", true, 40);
        Instant issuedAt;
        try {
            issuedAt = Instant.parse(issuedText);
        } catch (DateTimeParseException e) {
            throw FieldProblem.field("issuedAt", "must be an ISO-8601 UTC time such as 2026-11-21T10:00:00Z");
        }
        return new RegistrationRequest(name, description, apiUrl, signedApiUrl, address, signedAddress, category,
                additional, tier, hotkey, uid, contact, contactEmail, docsUrl, profile, signature, nonce, issuedAt,
                issuedText);
    }

    private static String optionalUrl(JsonNode body, String field) {
        String text = text(body, field, false, MAX_URL);
        return text == null ? null : httpUrl(field, text, false).toString();
    }

    private static Boolean optionalBoolean(JsonNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isBoolean()) {
            throw FieldProblem.field(field, "must be true or false");
        }
        return node.booleanValue();
    }

    private static String text(JsonNode body, String field, boolean required, int maxLength) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            if (required) {
                throw FieldProblem.field(field, "is required");
            }
            return null;
        }
        if (!node.isTextual()) {
            throw FieldProblem.field(field, "must be a string");
        }
        String value = node.asText();
        if (value.isBlank()) {
            if (required) {
                throw FieldProblem.field(field, "must not be empty");
            }
            return null;
        }
        if (value.length() > maxLength) {
            throw FieldProblem.field(field, "is longer than " + maxLength + " characters");
        }
        if (value.chars().anyMatch(c -> Character.isISOControl(c) && c != '\n')) {
            throw FieldProblem.field(field, "contains control characters");
        }
        return value;
    }

    /** http or https, a host, no user info, query or fragment; a trailing slash is dropped. */
    static URI httpUrl(String field, String text, boolean baseOnly) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw FieldProblem.field(field, "is not a valid URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw FieldProblem.field(field, "must be an http or https URL");
        }
        if (uri.getHost() == null || uri.getHost().isBlank()) {
            throw FieldProblem.field(field, "must name a host");
        }
        if (uri.getRawUserInfo() != null) {
            throw FieldProblem.field(field, "must not carry user information");
        }
        if (uri.getRawFragment() != null || baseOnly && uri.getRawQuery() != null) {
            throw FieldProblem.field(field, baseOnly ? "must be a base URL, without query or fragment"
                    : "must not carry a fragment");
        }
        String normalized = text.endsWith("/") && baseOnly ? text.substring(0, text.length() - 1) : text;
        return URI.create(normalized);
    }

    private static ProviderCategory category(String field, String code) {
        return ProviderCategory.fromCode(code)
                .orElseThrow(() -> FieldProblem.field(field, "must be one of " + ProviderCategory.codes()));
    }

    private static List<ProviderCategory> additionalCategories(JsonNode node, ProviderCategory main) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw FieldProblem.field("additionalCategories", "must be an array of categories");
        }
        if (node.size() > MAX_ADDITIONAL_CATEGORIES) {
            throw FieldProblem.field("additionalCategories", "has more than " + MAX_ADDITIONAL_CATEGORIES + " entries");
        }
        List<ProviderCategory> categories = new ArrayList<>();
        for (JsonNode item : node) {
            if (!item.isTextual()) {
                throw FieldProblem.field("additionalCategories", "must be an array of strings");
            }
            ProviderCategory category = category("additionalCategories", item.asText());
            if (category == main || categories.contains(category)) {
                throw FieldProblem.field("additionalCategories", "repeats " + category.code());
            }
            categories.add(category);
        }
        return categories;
    }

    private static Integer uid(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isIntegralNumber() || !node.canConvertToInt() || node.asInt() < 0 || node.asInt() > 65_535) {
            throw FieldProblem.field("uid", "must be an integer from 0 to 65535");
        }
        return node.asInt();
    }
}
