package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.Optional;

/**
 * JSON numbers as decimals. Jackson reads a number with a fraction or an exponent as a double, so
 * {@code 1e400} arrives as infinity, which has no decimal value ({@code decimalValue()} throws).
 */
final class JsonDecimals {

    private JsonDecimals() {
    }

    /** The number's value; empty for anything else, and for a number too large for a double. */
    static Optional<BigDecimal> of(JsonNode node) {
        if (node == null || !node.isNumber()) {
            return Optional.empty();
        }
        if ((node.isDouble() || node.isFloat()) && !Double.isFinite(node.doubleValue())) {
            return Optional.empty();
        }
        return Optional.of(node.decimalValue());
    }
}
