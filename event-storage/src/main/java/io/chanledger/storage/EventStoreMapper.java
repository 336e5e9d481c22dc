package io.chanledger.storage;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.chanledger.domain.money.DecimalTextSerializer;
import java.math.BigInteger;

/**
 * The stored form of this domain's events and aggregate snapshots: the Jackson mapper the event
 * store writes and reads every message with, and the one a rebuild, an audit or a test reads
 * them back with. It belongs to the event store alone, so that changing how the web layer renders
 * JSON can never change how stored events read back. uint256 values are written as decimal
 * strings: JSON readers that parse numbers as doubles would otherwise lose base units.
 */
public final class EventStoreMapper {

    private EventStoreMapper() {
    }

    /** A new mapper of the event store's form (mappers are configured once, so each caller gets its own). */
    public static ObjectMapper create() {
        SimpleModule uint256AsText = new SimpleModule("uint256-as-text")
                .addSerializer(BigInteger.class, DecimalTextSerializer.INSTANCE);
        return new ObjectMapper()
                .registerModule(new JavaTimeModule())
                .registerModule(uint256AsText)
                // aggregates are snapshotted field by field, without getters
                .setVisibility(PropertyAccessor.ALL, JsonAutoDetect.Visibility.NONE)
                .setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    }
}
