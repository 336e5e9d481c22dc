package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.money.Usdc;
import io.chanledger.domain.provider.ModelPrice;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Reads a provider's {@code GET /v1/pricing}: {@code {provider, providerName, chainId, currency,
 * decimals, models: {"<model id>": {inputPer1kTokens, outputPer1kTokens, name?}}}}. Prices are
 * decimal USDC strings (numbers are taken too); the provider must name the address it registered,
 * or payments would go elsewhere.
 */
final class PricingDocument {

    static final int MAX_MODELS = 500;
    static final int MAX_MODEL_ID_LENGTH = 200;

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
        return new ModelPrice(id, display, input, output);
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
