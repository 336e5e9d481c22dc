package io.chanledger.domain.provider;

import java.math.BigInteger;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * One model a provider serves and what it costs, in USDC base units. {@code kind} says how it is
 * priced; {@code unitPrice} is set for a model priced per unit, and only then.
 *
 * <p>{@code inputPer1kTokens} and {@code outputPer1kTokens} are the two numbers agent clients
 * deployed before the kind existed read, and budget a request by: per 1,000 tokens for a model
 * priced per token; for any other, its highest price of one request with an output price of 0
 * (docs/protocol.md §D.1). A price published before the kind existed has none: output 0 and input
 * above 0 was flat, anything else per token, which is the kind it is given here.
 */
public record ModelPrice(String id, String name, BigInteger inputPer1kTokens, BigInteger outputPer1kTokens,
                         PriceKind kind, UnitPrice unitPrice) {

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
        if (kind == null) {
            kind = flatByNumbers(inputPer1kTokens, outputPer1kTokens) ? PriceKind.FLAT : PriceKind.TOKENS;
        }
        if (kind == PriceKind.PER_UNIT) {
            if (unitPrice == null || !inputPer1kTokens.equals(unitPrice.maxPrice()) || outputPer1kTokens.signum() != 0) {
                throw new IllegalArgumentException("model " + id + " is priced per unit: it needs its price per unit, "
                        + "and publishes its highest price of a request as input price, 0 as output price");
            }
        } else if (unitPrice != null) {
            throw new IllegalArgumentException("model " + id + " is not priced per unit");
        } else if (kind == PriceKind.FLAT && !flatByNumbers(inputPer1kTokens, outputPer1kTokens)) {
            throw new IllegalArgumentException("model " + id + " is priced flat: its price is above 0, its output "
                    + "price 0");
        }
    }

    /** A model priced per token, or flat when its output price is 0 and its input price above. */
    public ModelPrice(String id, String name, BigInteger inputPer1kTokens, BigInteger outputPer1kTokens) {
        this(id, name, inputPer1kTokens, outputPer1kTokens, null, null);
    }

    /** A model priced per unit, publishing its highest price of a request as its input price. */
    public static ModelPrice perUnit(String id, String name, UnitPrice unitPrice) {
        return new ModelPrice(id, name, unitPrice.maxPrice(), BigInteger.ZERO, PriceKind.PER_UNIT, unitPrice);
    }

    /** The whole price, as it is published. */
    public Price price() {
        return Price.of(this);
    }

    /** The price of one request of a model priced flat; null for any other. */
    public BigInteger perRequest() {
        return kind == PriceKind.FLAT ? inputPer1kTokens : null;
    }

    private static boolean flatByNumbers(BigInteger input, BigInteger output) {
        return output.signum() == 0 && input.signum() > 0;
    }

    /**
     * The models in one order (by id), so the same price list read twice in a different order is
     * the same list, and publishing it again changes nothing.
     */
    public static List<ModelPrice> canonical(List<ModelPrice> models) {
        return models.stream().sorted(Comparator.comparing(ModelPrice::id)).toList();
    }
}
