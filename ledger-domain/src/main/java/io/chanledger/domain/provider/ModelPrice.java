package io.chanledger.domain.provider;

import java.math.BigInteger;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * One model a provider serves and what it costs, in USDC base units per 1,000 tokens. A
 * flat-priced service publishes an output price of zero.
 */
public record ModelPrice(String id, String name, BigInteger inputPer1kTokens, BigInteger outputPer1kTokens) {

    public ModelPrice {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(inputPer1kTokens, "inputPer1kTokens");
        Objects.requireNonNull(outputPer1kTokens, "outputPer1kTokens");
        if (id.isBlank()) {
            throw new IllegalArgumentException("a model needs an id");
        }
        if (inputPer1kTokens.signum() < 0 || outputPer1kTokens.signum() < 0) {
            throw new IllegalArgumentException("model " + id + " has a negative price");
        }
        name = name == null || name.isBlank() ? id : name;
    }

    /**
     * The models in one order (by id), so the same price list read twice in a different order is
     * the same list, and publishing it again changes nothing.
     */
    public static List<ModelPrice> canonical(List<ModelPrice> models) {
        return models.stream().sorted(Comparator.comparing(ModelPrice::id)).toList();
    }
}
