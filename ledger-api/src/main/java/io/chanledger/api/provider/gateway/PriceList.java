package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.domain.money.Usdc;
import java.math.BigInteger;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** The models the gateway sells and what a request costs. */
final class PriceList {

    private static final BigInteger THOUSAND = BigInteger.valueOf(1_000);

    /**
     * Output tokens held before the upstream call, as the deployed providers pre-authorise them:
     * a request's output cannot be known before it is produced, and a client that budgets its
     * voucher for its own estimate must not be refused for a guess of the gateway's. What the
     * answer costs beyond is charged afterwards, from what the voucher covers.
     */
    static final long HELD_OUTPUT_TOKENS = 50;

    /** How a model is priced: per token, per request, or per unit of one of its parameters. */
    enum Pricing {
        TOKENS, FLAT, PER_UNIT;

        static Pricing of(String model, String text) {
            if (GatewayProperties.blank(text)) {
                return TOKENS;
            }
            return switch (text.strip().toLowerCase(Locale.ROOT)) {
                case "tokens" -> TOKENS;
                case "flat" -> FLAT;
                case "per-unit" -> PER_UNIT;
                default -> throw new IllegalStateException("chan.gateway.models[" + model + "].pricing must be "
                        + "tokens, flat or per-unit, not " + text);
            };
        }
    }

    /**
     * Per-unit pricing: {@code pricePerUnit} base units times the integer parameter
     * {@code parameter}, which lies between {@code min} and {@code max}.
     */
    record Units(String parameter, BigInteger pricePerUnit, long min, long max) {

        BigInteger maxPrice() {
            return pricePerUnit.multiply(BigInteger.valueOf(max));
        }
    }

    /**
     * A model with its prices in base units per 1,000 tokens, and the decimal strings it was
     * configured with. A model priced at zero for output and above zero for input is flat-priced
     * (docs/protocol.md §D.1): its input price is the price of one request, whatever its tokens. A model
     * priced per unit publishes its highest price per request, since that is what clients
     * budget a request at. {@code service} is set for a model of an HTTP upstream: the parameters
     * it takes and, if declared, the answers it gives.
     */
    record ModelRate(String id, String name, BigInteger inputPer1k, BigInteger outputPer1k, long created,
                     Pricing pricing, Units units, ServiceParameters service, String upstream) {

        /** What a service request with these (valid) parameters costs; it holds the same. */
        BigInteger serviceCost(JsonNode parameters) {
            if (pricing == Pricing.PER_UNIT) {
                return units.pricePerUnit().multiply(BigInteger.valueOf(parameters.path(units.parameter()).longValue()));
            }
            return inputPer1k;
        }

        /** Why the parameter counting units is out of its bounds; null when it is within them. */
        String unitsProblem(JsonNode parameters) {
            if (pricing != Pricing.PER_UNIT) {
                return null;
            }
            JsonNode value = parameters.path(units.parameter());
            if (!value.canConvertToExactIntegral() || !value.canConvertToLong() || value.longValue() < units.min()
                    || value.longValue() > units.max()) {
                return units.parameter() + " must be an integer from " + units.min() + " to " + units.max();
            }
            return null;
        }

        String inputPer1kText() {
            return Usdc.formatDecimalUsdc(inputPer1k);
        }

        String outputPer1kText() {
            return Usdc.formatDecimalUsdc(outputPer1k);
        }

        boolean flat() {
            return outputPer1k.signum() == 0 && inputPer1k.signum() > 0;
        }

        /**
         * (in × inputPer1k + out × outputPer1k) / 1000 base units, rounded down; for a flat-priced
         * model, its price.
         */
        BigInteger cost(long inputTokens, long outputTokens) {
            if (flat()) {
                return inputPer1k;
            }
            return BigInteger.valueOf(inputTokens).multiply(inputPer1k)
                    .add(BigInteger.valueOf(outputTokens).multiply(outputPer1k))
                    .divide(THOUSAND);
        }

        /**
         * What a request holds before the upstream call: its input and {@link #HELD_OUTPUT_TOKENS}
         * output tokens (fewer when the client asked for fewer); a flat-priced request, its price.
         */
        BigInteger hold(long inputTokens, OptionalLong outputLimit) {
            return cost(inputTokens, Math.min(HELD_OUTPUT_TOKENS, outputLimit.orElse(HELD_OUTPUT_TOKENS)));
        }
    }

    private final Map<String, ModelRate> models;

    private PriceList(Map<String, ModelRate> models) {
        this.models = models;
    }

    static PriceList of(GatewayProperties properties, long defaultCreated) {
        return of(properties, defaultCreated, new ObjectMapper());
    }

    static PriceList of(GatewayProperties properties, long defaultCreated, ObjectMapper json) {
        if (properties.models().isEmpty()) {
            throw new IllegalStateException("the gateway sells nothing: configure chan.gateway.models");
        }
        Map<String, ModelRate> models = new LinkedHashMap<>();
        for (GatewayProperties.Model model : properties.models()) {
            if (GatewayProperties.blank(model.id())) {
                throw new IllegalStateException("every chan.gateway.models entry needs an id");
            }
            String name = GatewayProperties.blank(model.name()) ? model.id() : model.name();
            long created = model.created() == null ? defaultCreated : model.created();
            if (GatewayProperties.blank(model.parameters()) && !GatewayProperties.blank(model.answerSchema())) {
                throw new IllegalStateException("chan.gateway.models[" + model.id() + "].answer-schema is for models "
                        + "of an http upstream, which declare their parameters");
            }
            ServiceParameters service = GatewayProperties.blank(model.parameters()) ? null
                    : ServiceParameters.declare(model.id(), model.parameters(), model.example(), model.description(),
                    model.answerSchema(), json);
            ModelRate rate = switch (Pricing.of(model.id(), model.pricing())) {
                case TOKENS -> new ModelRate(model.id(), name,
                        price(model, "input-per-1k-tokens", model.inputPer1kTokens()),
                        price(model, "output-per-1k-tokens", model.outputPer1kTokens()), created, Pricing.TOKENS,
                        null, service, model.upstream());
                case FLAT -> {
                    BigInteger price = price(model, "price", model.price());
                    if (price.signum() <= 0) {
                        throw new IllegalStateException("chan.gateway.models[" + model.id() + "].price must be above 0");
                    }
                    yield new ModelRate(model.id(), name, price, BigInteger.ZERO, created, Pricing.FLAT, null, service,
                            model.upstream());
                }
                case PER_UNIT -> {
                    Units units = units(model, service);
                    yield new ModelRate(model.id(), name, units.maxPrice(), BigInteger.ZERO, created, Pricing.PER_UNIT,
                            units, service, model.upstream());
                }
            };
            if (models.put(model.id(), rate) != null) {
                throw new IllegalStateException("chan.gateway.models lists " + model.id() + " twice");
            }
        }
        return new PriceList(models);
    }

    private static Units units(GatewayProperties.Model model, ServiceParameters service) {
        String where = "chan.gateway.models[" + model.id() + "]";
        if (service == null || GatewayProperties.blank(model.unitParameter())
                || !service.requiredInteger(model.unitParameter())) {
            throw new IllegalStateException(where + ": per-unit pricing needs unit-parameter naming a required "
                    + "integer of its parameters");
        }
        BigInteger perUnit = price(model, "price-per-unit", model.pricePerUnit());
        long min = model.minUnits() == null ? 1 : model.minUnits();
        if (perUnit.signum() <= 0 || model.maxUnits() == null || min < 1 || model.maxUnits() < min) {
            throw new IllegalStateException(where + ": per-unit pricing needs price-per-unit above 0 and "
                    + "1 <= min-units <= max-units");
        }
        return new Units(model.unitParameter(), perUnit, min, model.maxUnits());
    }

    private static BigInteger price(GatewayProperties.Model model, String field, String text) {
        if (text == null) {
            throw new IllegalStateException("chan.gateway.models[" + model.id() + "]." + field + " is missing");
        }
        try {
            return Usdc.parseDecimalUsdc(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("chan.gateway.models[" + model.id() + "]." + field + ": " + e.getMessage());
        }
    }

    Optional<ModelRate> model(String id) {
        return Optional.ofNullable(id == null ? null : models.get(id));
    }

    Collection<ModelRate> models() {
        return models.values();
    }
}
