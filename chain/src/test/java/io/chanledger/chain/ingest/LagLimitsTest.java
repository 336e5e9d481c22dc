package io.chanledger.chain.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LagLimitsTest {

    private static final LagLimits LIMITS = new LagLimits(128, 300);
    private static final long HEAD_TIME = 1_800_000_000L;

    private static Checkpoint view(long block, long timestamp) {
        return new Checkpoint(block, "0x" + "ab".repeat(32), timestamp);
    }

    @Test
    void aViewIsBehindBeyondEitherLimitAndNotAtIt() {
        assertThat(LIMITS.behind(1_000, HEAD_TIME, view(872, HEAD_TIME - 300), 0)).isFalse();
        assertThat(LIMITS.behind(1_000, HEAD_TIME, view(871, HEAD_TIME - 10), 0)).as("blocks").isTrue();
        assertThat(LIMITS.behind(1_000, HEAD_TIME, view(999, HEAD_TIME - 301), 0)).as("chain time").isTrue();
    }

    @Test
    void aViewOfNothingIsBehindOnceTheHeadReachesTheStartBlock() {
        assertThat(LIMITS.behind(99, HEAD_TIME, null, 100)).isFalse();
        assertThat(LIMITS.behind(100, HEAD_TIME, null, 100)).isTrue();
    }

    @Test
    void noLimitsNeverJudgeAViewBehind() {
        assertThat(LagLimits.NONE.behind(Long.MAX_VALUE, HEAD_TIME, null, 0)).isFalse();
        assertThat(LagLimits.NONE.behind(1_000_000, HEAD_TIME, view(0, 0), 0)).isFalse();
    }

    @Test
    void negativeLimitsAreRefused() {
        assertThatThrownBy(() -> new LagLimits(-1, 300)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LagLimits(128, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
