package io.chanledger.domain.money;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Usdc}'s text rules against the shared table {@code vectors/usdc-text.json}, which the web
 * pages' tests check their own implementation against too: a rule changed on one side only fails
 * one of the two.
 */
class UsdcTextCasesTest {

    @ParameterizedTest(name = "parse \"{0}\"")
    @MethodSource("parseCases")
    void parsesAsTheSharedTableSays(String text, JsonNode expected) {
        if (expected.has("error")) {
            assertThatThrownBy(() -> Usdc.parseDecimalUsdc(text)).as(expected.path("error").asText())
                    .isInstanceOf(IllegalArgumentException.class);
        } else {
            assertThat(Usdc.parseDecimalUsdc(text)).isEqualTo(new BigInteger(expected.path("units").asText()));
        }
    }

    @ParameterizedTest(name = "format {0}")
    @MethodSource("formatCases")
    void formatsAsTheSharedTableSays(String units, JsonNode expected) {
        if (expected.has("error")) {
            assertThatThrownBy(() -> Usdc.formatDecimalUsdc(new BigInteger(units))).as(expected.path("error").asText())
                    .isInstanceOf(IllegalArgumentException.class);
        } else {
            assertThat(Usdc.formatDecimalUsdc(new BigInteger(units))).isEqualTo(expected.path("text").asText());
        }
    }

    static Stream<Arguments> parseCases() throws IOException {
        return cases("parse").map(c -> Arguments.of(c.path("text").asText(), c));
    }

    static Stream<Arguments> formatCases() throws IOException {
        return cases("format").map(c -> Arguments.of(c.path("units").asText(), c));
    }

    private static Stream<JsonNode> cases(String kind) throws IOException {
        try (InputStream in = UsdcTextCasesTest.class.getResourceAsStream("/vectors/usdc-text.json")) {
            JsonNode table = new ObjectMapper().readTree(in);
            assertThat(table.path(kind).size()).as("cases of " + kind).isPositive();
            return StreamSupport.stream(table.path(kind).spliterator(), false).toList().stream();
        }
    }
}
