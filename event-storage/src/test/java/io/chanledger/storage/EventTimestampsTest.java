package io.chanledger.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Random;
import java.util.function.Supplier;
import org.axonframework.common.DateTimeUtils;
import org.junit.jupiter.api.Test;

/** The event store's times written and read as Axon's own methods would, to the character and the nanosecond. */
class EventTimestampsTest {

    private static final long YEAR_0 = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
    private static final long YEAR_10000 = Instant.parse("+10000-01-01T00:00:00Z").getEpochSecond();

    private final EventTimestamps timestamps = new EventTimestamps();

    @Test
    void readsWhatAxonWritesAsAxonReadsIt() {
        Random random = new Random(20261124L);
        for (int i = 0; i < 100_000; i++) {
            // from 1970 to 2100, with every precision from seconds to nanoseconds (Axon stores milliseconds)
            Instant instant = Instant.ofEpochSecond(random.nextLong(4_102_444_800L),
                    random.nextInt(1_000_000_000) / (int) Math.pow(10, random.nextInt(10)));
            String stored = DateTimeUtils.formatInstant(instant);

            assertThat(timestamps.parse(stored)).as(stored).isEqualTo(DateTimeUtils.parseInstant(stored));
            assertThat(EventTimestamps.parseOne(stored)).as(stored).isEqualTo(DateTimeUtils.parseInstant(stored));
        }
    }

    @Test
    void writesEveryTimeAsAxonDoes() {
        Random random = new Random(20261128L);
        for (int i = 0; i < 200_000; i++) {
            // the years Axon writes in four digits, and some before and after them
            Instant instant = Instant.ofEpochSecond(
                    random.nextLong(YEAR_0 - 86_400L * 800, YEAR_10000 + 86_400L * 800), random.nextInt(1_000_000_000));
            String axons = DateTimeUtils.formatInstant(instant);

            assertThat(EventTimestamps.format(instant)).as(instant::toString).isEqualTo(axons);
            assertThat(EventTimestamps.parseOne(axons)).as(axons).isEqualTo(DateTimeUtils.parseInstant(axons));
        }
    }

    @Test
    void writesTheEdgesAsAxonDoes() {
        for (String time : new String[] {"1970-01-01T00:00:00Z", "1969-12-31T23:59:59.999999999Z",
                "2024-02-29T12:00:00.5Z", "2100-02-28T23:59:59.999Z", "2000-02-29T00:00:00.001Z",
                "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z", "-0001-12-31T23:59:59Z",
                "+10000-01-01T00:00:00Z", "2026-11-28T07:01:36.123456789Z"}) {
            Instant instant = Instant.parse(time);
            assertThat(EventTimestamps.format(instant)).as(time).isEqualTo(DateTimeUtils.formatInstant(instant));
            assertThat(EventTimestamps.parseOne(EventTimestamps.format(instant))).as(time)
                    .isEqualTo(DateTimeUtils.parseInstant(DateTimeUtils.formatInstant(instant)));
        }
    }

    @Test
    void readsConsecutiveEventsOfOneDayAndTheNext() {
        assertThat(timestamps.parse("2026-11-24T23:59:59.999999999Z")).isEqualTo(Instant.parse("2026-11-24T23:59:59.999999999Z"));
        assertThat(timestamps.parse("2026-11-24T00:00:00.000Z")).isEqualTo(Instant.parse("2026-11-24T00:00:00Z"));
        assertThat(timestamps.parse("2026-11-25T00:00:00.500Z")).isEqualTo(Instant.parse("2026-11-25T00:00:00.5Z"));
        assertThat(timestamps.parse("2024-02-29T12:00:00.123456Z")).isEqualTo(Instant.parse("2024-02-29T12:00:00.123456Z"));
    }

    /** Other spellings, and text that is no time, are read or refused as Axon's parser reads or refuses them. */
    @Test
    void leavesOtherSpellingsToAxonsParser() {
        for (String text : new String[] {"2026-11-24T10:15:30Z", "2026-11-24T10:15:30.1Z", "2026-11-24T10:15:30.000+01:00",
                "2026-02-30T10:15:30.000Z", "2026-11-24T25:15:30.000Z", "2026-11-24T10:15:30.0000000000Z",
                "+12026-11-24T10:15:30.000Z", "not a time at all, but long", "2026-02-29T07:01:36.123Z",
                "2026-13-01T07:01:36.123Z", "2026-11-31T07:01:36.123Z", "2026-11-28T24:00:00.000Z",
                "2026-11-28T07:60:36.123Z", "2026-11-28T07:01:60.123Z", "2026-11-28T07:01:36.12xZ",
                "2026-1x-28T07:01:36.123Z", "2026-00-28T07:01:36.123Z", "2026-11-00T07:01:36.123Z",
                "2026-11-28t07:01:36.123z", "2026-11-28T07:01:36.123-00:30"}) {
            Object axons = outcome(() -> DateTimeUtils.parseInstant(text));
            assertThat(outcome(() -> timestamps.parse(text))).as(text).isEqualTo(axons);
            assertThat(outcome(() -> EventTimestamps.parseOne(text))).as(text).isEqualTo(axons);
        }
    }

    /** The instant, or the kind of exception. */
    private static Object outcome(Supplier<Instant> parse) {
        try {
            return parse.get();
        } catch (RuntimeException e) {
            return e.getClass();
        }
    }
}
