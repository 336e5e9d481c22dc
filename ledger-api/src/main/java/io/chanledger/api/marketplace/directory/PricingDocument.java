package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.money.Usdc;
import io.chanledger.domain.provider.ModelPrice;
import io.chanledger.domain.provider.PriceKind;
import io.chanledger.domain.provider.UnitPrice;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads a provider's {@code GET /v1/pricing}: {@code {provider, providerName, chainId, currency,
 * decimals, models: {"<model id>": {inputPer1kTokens, outputPer1kTokens, name?, price?}}}}. The two
 * prices are decimal USDC strings (numbers are taken too); {@code price}, the whole price with its
 * kind in base units, is taken when given and must agree with them (a provider that publishes
 * none is read by its two numbers: output 0 and input above 0 is flat, anything else per token).
 * The provider must name the address it registered, or payments would go elsewhere.
 */
final class PricingDocument {

    static final int MAX_MODELS = 500;
    static final int MAX_MODEL_ID_LENGTH = 200;
    private static final Pattern BASE_UNITS = Pattern.compile("0|[1-9][0-9]{0,77}");

    private PricingDocument() {
    }

    static List<ModelPrice> parse(JsonNode body, String expectedAddress, long chainId) throws ProbeFailure {
        if (body == null || !body.isObject()) {
            throw new ProbeFailure("/v1/pricing did not answer with a JSON object");
        }
        JsonNode provider = body.get("provider");
        if (provider == null || !provider.isTextual() || !Hex.isAddress(provider.asText())) {
            throw new ProbeFailure("/v1/pricing has no provider address");
        }
        if (!provider.asText().equalsIgnoreCase(expectedAddress)) {
            throw new ProbeFailure("/v1/pricing names provider " + provider.asText() + ", not the registered "
                    + Hex.toChecksumAddress(expectedAddress));
        }
        JsonNode chain = body.get("chainId");
        if (chain != null && !chain.isNull() && chain.asLong(-1) != chainId) {
            throw new ProbeFailure("/v1/pricing is for chain " + chain.asText() + ", this marketplace is on chain " + chainId);
        }
        JsonNode currency = body.get("currency");
        if (currency != null && !currency.isNull() && !"USDC".equals(currency.asText())) {
            throw new ProbeFailure("/v1/pricing prices in " + currency.asText() + ", not USDC");
        }
        JsonNode decimals = body.get("decimals");
        if (decimals != null && !decimals.isNull() && decimals.asInt(-1) != Usdc.DECIMALS) {
            throw new ProbeFailure("/v1/pricing says decimals " + decimals.asText() + "; USDC has " + Usdc.DECIMALS);
        }
        JsonNode models = body.get("models");
        if (models == null || !models.isObject() || models.isEmpty()) {
            throw new ProbeFailure("/v1/pricing lists no models");
        }
        if (models.size() > MAX_MODELS) {
            throw new ProbeFailure("/v1/pricing lists " + models.size() + " models; at most " + MAX_MODELS + " are taken");
        }
        List<ModelPrice> prices = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> entries = models.fields();
        while (entries.hasNext()) {
            Map.Entry<String, JsonNode> entry = entries.next();
            prices.add(model(entry.getKey(), entry.getValue()));
        }
        return ModelPrice.canonical(prices);
    }

    private static ModelPrice model(String id, JsonNode pricing) throws ProbeFailure {
        if (id.isBlank() || id.length() > MAX_MODEL_ID_LENGTH || !printable(id)) {
            throw new ProbeFailure("/v1/pricing has a model id that is empty, longer than " + MAX_MODEL_ID_LENGTH
                    + " characters or not printable");
        }
        if (!pricing.isObject()) {
            throw new ProbeFailure("/v1/pricing: model " + id + " has no price object");
        }
        BigInteger input = price(id, pricing, "inputPer1kTokens");
        BigInteger output = price(id, pricing, "outputPer1kTokens");
        JsonNode name = pricing.get("name");
        String display = name != null && name.isTextual() && !name.asText().isBlank() && name.asText().length() <= 200
                && printable(name.asText()) ? name.asText() : id;
        JsonNode price = pricing.get("price");
        if (price == null || price.isNull()) {
            return new ModelPrice(id, display, input, output);
        }
        if (!price.isObject()) {
            throw new ProbeFailure("/v1/pricing: model " + id + " has a price that is not an object");
        }
        PriceKind kind = PriceKind.ofWire(price.path("kind").asText(null));
        if (kind == null) {
            throw new ProbeFailure("/v1/pricing: model " + id + " has a price whose kind is not tokens, flat or "
                    + "per-unit");
        }
        try {
            UnitPrice units = kind != PriceKind.PER_UNIT ? null : new UnitPrice(unit(id, price),
                    baseUnits(id, price, "perUnit"), count(id, price, "minUnits"), count(id, price, "maxUnits"));
            if (kind == PriceKind.FLAT && !baseUnits(id, price, "perRequest").equals(input)) {
                throw new IllegalArgumentException("its price per request is not its inputPer1kTokens");
            }
            if (kind == PriceKind.TOKENS && !(baseUnits(id, price, "inputPer1kTokens").equals(input)
                    && baseUnits(id, price, "outputPer1kTokens").equals(output))) {
                throw new IllegalArgumentException("its price is not its inputPer1kTokens and outputPer1kTokens");
            }
            return new ModelPrice(id, display, input, output, kind, units);
        } catch (IllegalArgumentException e) {
            throw new ProbeFailure("/v1/pricing: model " + id + " has a price that does not hold: " + e.getMessage());
        }
    }

    /** An amount of the whole price: base units, a decimal string of an integer. */
    private static BigInteger baseUnits(String id, JsonNode price, String field) throws ProbeFailure {
        String text = price.path(field).asText("");
        if (!price.path(field).isTextual() || !BASE_UNITS.matcher(text).matches()) {
            throw new ProbeFailure("/v1/pricing: model " + id + " price." + field + " is not base units as a "
                    + "decimal string of an integer");
        }
        return new BigInteger(text);
    }

    private static long count(String id, JsonNode price, String field) throws ProbeFailure {
        JsonNode value = price.path(field);
        if (!value.canConvertToExactIntegral() || !value.canConvertToLong()) {
            throw new ProbeFailure("/v1/pricing: model " + id + " price." + field + " is not an integer");
        }
        return value.longValue();
    }

    private static String unit(String id, JsonNode price) throws ProbeFailure {
        String unit = price.path("unit").asText("");
        if (!price.path("unit").isTextual() || unit.isBlank() || unit.length() > MAX_MODEL_ID_LENGTH
                || !printable(unit)) {
            throw new ProbeFailure("/v1/pricing: model " + id + " price.unit is empty, longer than "
                    + MAX_MODEL_ID_LENGTH + " characters or not printable");
        }
        return unit;
    }

    private static BigInteger price(String id, JsonNode pricing, String field) throws ProbeFailure {
        JsonNode value = pricing.get(field);
        String text;
        if (value != null && value.isTextual()) {
            text = value.asText();
        } else if (value != null && value.isNumber()) {
            // a number too large for a double keeps its text ("Infinity"), which is refused below
            text = JsonDecimals.of(value).map(BigDecimal::toPlainString).orElse(value.asText());
        } else {
            throw new ProbeFailure("/v1/pricing: model " + id + " has no " + field);
        }
        try {
            return Usdc.parseDecimalUsdc(text);
        } catch (IllegalArgumentException e) {
            throw new ProbeFailure("/v1/pricing: model " + id + " " + field + " \"" + abbreviate(text) + "\" is not a USDC amount: "
                    + e.getMessage());
        }
    }

    private static boolean printable(String text) {
        return text.chars().noneMatch(Character::isISOControl);
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}
