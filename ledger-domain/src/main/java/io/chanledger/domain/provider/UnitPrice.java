package io.chanledger.domain.provider;

import java.math.BigInteger;
import java.util.Objects;

/**
 * A price per unit: a request costs {@code perUnit} base units times the value of its integer
 * parameter {@code unit}, which lies between {@code minUnits} and {@code maxUnits}.
 */
public record UnitPrice(String unit, BigInteger perUnit, long minUnits, long maxUnits) {

    public UnitPrice {
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(perUnit, "perUnit");
        if (unit.isBlank()) {
            throw new IllegalArgumentException("a price per unit names its unit");
        }
        if (perUnit.signum() <= 0 || minUnits < 1 || maxUnits < minUnits) {
            throw new IllegalArgumentException("a price per unit is above 0, for 1 <= minUnits <= maxUnits units");
        }
    }

    /** What a request of {@code units} units costs. */
    public BigInteger price(long units) {
        return perUnit.multiply(BigInteger.valueOf(units));
    }

    /** The highest price of one request, what clients budget a request at. */
    public BigInteger maxPrice() {
        return price(maxUnits);
    }
}
