package io.chanledger.api.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.SplittableRandom;
import org.axonframework.common.DateTimeUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The event store's times written and read as Axon's own methods would, to the character and the nanosecond. */
class EventTimestampsTest {

    private static final long YEAR_0 = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
    private static final long YEAR_10000 = Instant.parse("+10000-01-01T00:00:00Z").getEpochSecond();

    @Test
    void writesAndReadsEveryTimeAsAxonDoes() {
        SplittableRandom random = new SplittableRandom(20261128);
        for (int i = 0; i < 200_000; i++) {
            // the years Axon writes in four digits, with some before and after them
            Instant time = Instant.ofEpochSecond(random.nextLong(YEAR_0 - 86_400L * 800, YEAR_10000 + 86_400L * 800),
                    random.nextInt(1_000_000_000));
            assertAsAxon(time);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"1970-01-01T00:00:00Z", "1969-12-31T23:59:59.999999999Z", "2024-02-29T12:00:00.5Z",
            "2100-02-28T23:59:59.999Z", "2000-02-29T00:00:00.001Z", "0000-01-01T00:00:00Z",
            "9999-12-31T23:59:59.999999999Z", "-0001-12-31T23:59:59Z", "+10000-01-01T00:00:00Z",
            "2026-11-28T07:01:36.123456789Z"})
    void writesAndReadsTheEdgesAsAxonDoes(String time) {
        assertAsAxon(Instant.parse(time));
    }

    /** Text of another shape than the one written is read as Axon reads it, or refused as Axon refuses it. */
    @ParameterizedTest
    @ValueSource(strings = {"2026-11-28T07:01:36.123+01:00", "2026-11-28T07:01:36Z", "2026-11-28T07:01:36.1234Z",
            "2026-11-28t07:01:36.123z", "2026-11-28T07:01:36.123-00:30", "+12026-11-28T07:01:36.123Z"})
    void readsOtherShapesAsAxonDoes(String text) {
        assertEquals(DateTimeUtils.parseInstant(text), EventTimestamps.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-02-29T07:01:36.123Z", "2026-13-01T07:01:36.123Z", "2026-11-31T07:01:36.123Z",
            "2026-11-28T24:00:00.000Z", "2026-11-28T07:60:36.123Z", "2026-11-28T07:01:60.123Z",
            "2026-11-28T07:01:36.12xZ", "2026-1x-28T07:01:36.123Z", "2026-00-28T07:01:36.123Z",
            "2026-11-00T07:01:36.123Z", "not a time at all, really"})
    void refusesWhatAxonRefuses(String text) {
        assertThrows(DateTimeParseException.class, () -> DateTimeUtils.parseInstant(text));
        assertThrows(DateTimeParseException.class, () -> EventTimestamps.parse(text));
    }

    private static void assertAsAxon(Instant time) {
        String axonText = DateTimeUtils.formatInstant(time);
        assertEquals(axonText, EventTimestamps.format(time), () -> "written: " + time);
        assertEquals(DateTimeUtils.parseInstant(axonText), EventTimestamps.parse(axonText), () -> "read: " + axonText);
    }
}
