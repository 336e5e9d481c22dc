package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Per provider, per source: a share per period, and a table of bounded size per provider. */
class SourceQuotaTest {

    private final AtomicLong now = new AtomicLong();
    private final SourceQuota quota = new SourceQuota(2, 1_000, 3, now::get);

    @Test
    void eachSourceCountsItsShareOnEachProviderPerPeriod() {
        assertThat(quota.admit("a", "net-1")).isTrue();
        assertThat(quota.admit("a", "net-1")).isTrue();
        assertThat(quota.admit("a", "net-1")).isFalse();
        assertThat(quota.admit("b", "net-1")).as("another provider").isTrue();

        now.addAndGet(1_000);

        assertThat(quota.admit("a", "net-1")).as("a new period").isTrue();
    }

    @Test
    void aFullTableRefusesNewSourcesOfThatProviderOnly() {
        for (String source : new String[]{"s1", "s2", "s3"}) {
            assertThat(quota.admit("flooded", source)).isTrue();
        }

        assertThat(quota.admit("flooded", "s4")).isFalse();
        assertThat(quota.admit("flooded", "s1")).as("a source already counted keeps its share").isTrue();
        assertThat(quota.admit("other", "s4")).isTrue();
    }
}
