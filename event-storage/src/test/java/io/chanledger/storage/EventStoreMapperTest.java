package io.chanledger.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** The event store writes uint256 values as the domain's DecimalTextSerializer does: decimal text. */
class EventStoreMapperTest {

    record Stored(BigInteger amount) {
    }

    @Test
    void writesAmountsAsDecimalText() throws Exception {
        String written = EventStoreMapper.create().writeValueAsString(new Stored(BigInteger.valueOf(42)));
        assertThat(written).isEqualTo("{\"amount\":\"42\"}");
    }
}
