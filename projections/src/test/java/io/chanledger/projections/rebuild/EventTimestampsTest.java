package io.chanledger.projections.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Random;
import java.util.function.Supplier;
import org.axonframework.common.DateTimeUtils;
import org.junit.jupiter.api.Test;

class EventTimestampsTest {

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
        }
    }

    @Test
    void readsConsecutiveEventsOfOneDayAndTheNext() {
        assertThat(timestamps.parse("2026-11-24T23:59:59.999999999Z")).isEqualTo(Instant.parse("2026-11-24T23:59:59.999999999Z"));
        assertThat(timestamps.parse("2026-11-24T00:00:00.000Z")).isEqualTo(Instant.parse("2026-11-24T00:00:00Z"));
        assertThat(timestamps.parse("2026-11-25T00:00:00.500Z")).isEqualTo(Instant.parse("2026-11-25T00:00:00.5Z"));
        assertThat(timestamps.parse("2024-02-29T12:00:00.123456Z")).isEqualTo(Instant.parse("2024-02-29T12:00:00.123456Z"));
    }

    @Test
    void leavesOtherSpellingsToAxonsParser() {
        for (String text : new String[] {"2026-11-24T10:15:30Z", "2026-11-24T10:15:30.1Z", "2026-11-24T10:15:30.000+01:00",
                "2026-02-30T10:15:30.000Z", "2026-11-24T25:15:30.000Z", "2026-11-24T10:15:30.0000000000Z",
                "+12026-11-24T10:15:30.000Z", "not a time at all, but long"}) {
            assertThat(outcome(() -> timestamps.parse(text))).as(text)
                    .isEqualTo(outcome(() -> DateTimeUtils.parseInstant(text)));
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
