package io.chanledger.api.gateway;

import io.chanledger.domain.money.Usdc;
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

    /**
     * A model with its prices in base units per 1,000 tokens, and the decimal strings it was
     * configured with. A model priced at zero for output and above zero for input is flat-priced
     * (PROTOCOL.md §3): its input price is the price of one request, whatever its tokens.
     */
    record ModelRate(String id, String name, BigInteger inputPer1k, BigInteger outputPer1k, long created) {

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
        if (properties.models().isEmpty()) {
            throw new IllegalStateException("the gateway sells nothing: configure chan.gateway.models");
        }
        Map<String, ModelRate> models = new LinkedHashMap<>();
        for (GatewayProperties.Model model : properties.models()) {
            if (GatewayProperties.blank(model.id())) {
                throw new IllegalStateException("every chan.gateway.models entry needs an id");
            }
            BigInteger input = price(model, "input-per-1k-tokens", model.inputPer1kTokens());
            BigInteger output = price(model, "output-per-1k-tokens", model.outputPer1kTokens());
            String name = GatewayProperties.blank(model.name()) ? model.id() : model.name();
            long created = model.created() == null ? defaultCreated : model.created();
            if (models.put(model.id(), new ModelRate(model.id(), name, input, output, created)) != null) {
                throw new IllegalStateException("chan.gateway.models lists " + model.id() + " twice");
            }
        }
        return new PriceList(models);
    }

    private static BigInteger price(GatewayProperties.Model model, String field, String text) {
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
