package io.chanledger.domain.provider;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * How a model is priced: per 1,000 input and output tokens, one price per request, or a price per
 * unit of one integer parameter of the request (minutes of a lease, say). Written as its
 * {@link #wire() name} in JSON, in stored events as on the wire.
 */
public enum PriceKind {
    TOKENS("tokens"), FLAT("flat"), PER_UNIT("per-unit");

    private final String wire;

    PriceKind(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    /** The kind a name stands for ({@code tokens}, {@code flat}, {@code per-unit}, any case); null for none. */
    @JsonCreator
    public static PriceKind ofWire(String name) {
        if (name == null) {
            return null;
        }
        String wanted = name.strip().toLowerCase(Locale.ROOT);
        for (PriceKind kind : values()) {
            if (kind.wire.equals(wanted)) {
                return kind;
            }
        }
        return null;
    }
}
