package io.chanledger.domain.money;

import com.fasterxml.jackson.databind.ser.std.ToStringSerializerBase;
import java.math.BigInteger;

/**
 * Jackson writes a {@link BigInteger} as a JSON string of its decimal digits, as
 * {@link com.fasterxml.jackson.databind.ser.std.ToStringSerializer} would, through
 * {@link Uint256#decimal}: JSON readers that parse numbers as doubles would otherwise lose base
 * units. The event store's mapper and the web layer's both use it.
 */
public final class DecimalTextSerializer extends ToStringSerializerBase {

    public static final DecimalTextSerializer INSTANCE = new DecimalTextSerializer();

    private DecimalTextSerializer() {
        super(BigInteger.class);
    }

    @Override
    public String valueToString(Object value) {
        return Uint256.decimal((BigInteger) value);
    }
}
