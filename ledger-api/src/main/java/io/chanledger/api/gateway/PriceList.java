package io.chanledger.api.gateway;

import io.chanledger.domain.money.Usdc;
import java.math.BigInteger;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The models the gateway sells and what a request costs. */
final class PriceList {

    private static final BigInteger THOUSAND = BigInteger.valueOf(1_000);

    /** A model with its prices in base units per 1,000 tokens, and the decimal strings it was configured with. */
    record ModelRate(String id, String name, BigInteger inputPer1k, BigInteger outputPer1k, long created) {

        String inputPer1kText() {
            return Usdc.formatDecimalUsdc(inputPer1k);
        }

        String outputPer1kText() {
            return Usdc.formatDecimalUsdc(outputPer1k);
        }

        /** (in × inputPer1k + out × outputPer1k) / 1000 base units, rounded down. */
        BigInteger cost(long inputTokens, long outputTokens) {
            return BigInteger.valueOf(inputTokens).multiply(inputPer1k)
                    .add(BigInteger.valueOf(outputTokens).multiply(outputPer1k))
                    .divide(THOUSAND);
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
