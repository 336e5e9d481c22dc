package io.chanledger.domain.money;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The stored and served form of uint256 values is Jackson's ToStringSerializer's, to the character. */
class DecimalTextSerializerTest {

    record Amounts(BigInteger small, BigInteger large, BigInteger missing, List<BigInteger> listed) {
    }

    @Test
    void writesWhatJacksonsToStringSerializerWrites() throws Exception {
        ObjectMapper toString = new ObjectMapper().registerModule(
                new SimpleModule().addSerializer(BigInteger.class, ToStringSerializer.instance));
        ObjectMapper decimal = new ObjectMapper().registerModule(
                new SimpleModule().addSerializer(BigInteger.class, DecimalTextSerializer.INSTANCE));
        Amounts amounts = new Amounts(BigInteger.valueOf(1_250_000), Uint256.MAX, null,
                Arrays.asList(BigInteger.ZERO, BigInteger.ONE.shiftLeft(63), null, BigInteger.valueOf(-7)));

        String written = decimal.writeValueAsString(amounts);

        assertThat(written).isEqualTo(toString.writeValueAsString(amounts));
        assertThat(written).contains("\"small\":\"1250000\"", "\"large\":\"" + Uint256.MAX + "\"",
                "\"9223372036854775808\"", "\"-7\"");
        assertThat(decimal.readValue(written, Amounts.class)).isEqualTo(amounts);
    }
}
