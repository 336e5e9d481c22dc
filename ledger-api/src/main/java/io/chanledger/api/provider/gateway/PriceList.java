package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.domain.money.Usdc;
import io.chanledger.domain.provider.ModelPrice;
import io.chanledger.domain.provider.PriceKind;
import io.chanledger.domain.provider.UnitPrice;
import java.math.BigInteger;
import java.util.Collection;
import java.util.LinkedHashMap;
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

    /** The kind a model's {@code pricing} setting names; per token when it names none. */
    static PriceKind kind(String model, String text) {
        if (GatewayProperties.blank(text)) {
            return PriceKind.TOKENS;
        }
        PriceKind kind = PriceKind.ofWire(text);
        if (kind == null) {
            throw new IllegalStateException("chan.gateway.models[" + model + "].pricing must be "
                    + "tokens, flat or per-unit, not " + text);
        }
        return kind;
    }

    /**
     * A model the gateway sells: its price as it is published ({@code modelPrice}: a model
     * configured per token with an output price of zero and an input price above is flat, docs/protocol.md
     * §D.1), the kind its settings named, and {@code service} for a model of an HTTP upstream: the
     * parameters it takes and, if declared, the answers it gives.
     */
    record ModelRate(ModelPrice modelPrice, PriceKind configuredKind, long created, ServiceParameters service,
                     String upstream) {

        String id() {
            return modelPrice.id();
        }

        String name() {
            return modelPrice.name();
        }

        /** Base units per 1,000 input tokens; for a model not priced per token, its highest price of a request. */
        BigInteger inputPer1k() {
            return modelPrice.inputPer1kTokens();
        }

        BigInteger outputPer1k() {
            return modelPrice.outputPer1kTokens();
        }

        PriceKind kind() {
            return modelPrice.kind();
        }

        /** The price per unit of a model priced per unit; null for any other. */
        UnitPrice units() {
            return modelPrice.unitPrice();
        }

        /** What a service request with these (valid) parameters costs; it holds the same. */
        BigInteger serviceCost(JsonNode parameters) {
            if (kind() == PriceKind.PER_UNIT) {
                return units().price(parameters.path(units().unit()).longValue());
            }
            return inputPer1k();
        }

        /** Why the parameter counting units is out of its bounds; null when it is within them. */
        String unitsProblem(JsonNode parameters) {
            if (kind() != PriceKind.PER_UNIT) {
                return null;
            }
            UnitPrice units = units();
            JsonNode value = parameters.path(units.unit());
            if (!value.canConvertToExactIntegral() || !value.canConvertToLong() || value.longValue() < units.minUnits()
                    || value.longValue() > units.maxUnits()) {
                return units.unit() + " must be an integer from " + units.minUnits() + " to " + units.maxUnits();
            }
            return null;
        }

        String inputPer1kText() {
            return Usdc.formatDecimalUsdc(inputPer1k());
        }

        String outputPer1kText() {
            return Usdc.formatDecimalUsdc(outputPer1k());
        }

        boolean flat() {
            return kind() == PriceKind.FLAT;
        }

        /**
         * (in × inputPer1k + out × outputPer1k) / 1000 base units, rounded down; for a flat-priced
         * model, its price.
         */
        BigInteger cost(long inputTokens, long outputTokens) {
            if (flat()) {
                return inputPer1k();
            }
            return BigInteger.valueOf(inputTokens).multiply(inputPer1k())
                    .add(BigInteger.valueOf(outputTokens).multiply(outputPer1k()))
                    .divide(THOUSAND);
        }

        /**
         * What a request holds before the upstream call: its input and {@link #HELD_OUTPUT_TOKENS}
         * output tokens (fewer when the client asked for fewer); a flat-priced request, its price.
         */
        BigInteger hold(long inputTokens, OptionalLong outputLimit) {
            return cost(inputTokens, Math.min(HELD_OUTPUT_TOKENS, outputLimit.orElse(HELD_OUTPUT_TOKENS)));
        }

        /**
         * The request body this model is shown with (in {@code /v1/docs}, {@code /v1/pricing} and so
         * on the marketplace's pages): a chat completion, whose last user message is the service's
         * declared example parameters for a service, a greeting for a chat model.
         */
        ObjectNode exampleRequest(ObjectMapper json) {
            ObjectNode request = json.createObjectNode();
            request.put("model", id());
            ArrayNode messages = request.putArray("messages");
            messages.addObject().put("role", "user")
                    .put("content", service == null ? "hello" : service.example().toString());
            return request;
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
            PriceKind configured = kind(model.id(), model.pricing());
            ModelPrice price = switch (configured) {
                case TOKENS -> new ModelPrice(model.id(), name,
                        price(model, "input-per-1k-tokens", model.inputPer1kTokens()),
                        price(model, "output-per-1k-tokens", model.outputPer1kTokens()));
                case FLAT -> {
                    BigInteger perRequest = price(model, "price", model.price());
                    if (perRequest.signum() <= 0) {
                        throw new IllegalStateException("chan.gateway.models[" + model.id() + "].price must be above 0");
                    }
                    yield new ModelPrice(model.id(), name, perRequest, BigInteger.ZERO, PriceKind.FLAT, null);
                }
                case PER_UNIT -> ModelPrice.perUnit(model.id(), name, units(model, service));
            };
            ModelRate rate = new ModelRate(price, configured, created, service, model.upstream());
            if (models.put(model.id(), rate) != null) {
                throw new IllegalStateException("chan.gateway.models lists " + model.id() + " twice");
            }
        }
        return new PriceList(models);
    }

    private static UnitPrice units(GatewayProperties.Model model, ServiceParameters service) {
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
        return new UnitPrice(model.unitParameter(), perUnit, min, model.maxUnits());
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
