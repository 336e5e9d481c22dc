package io.chanledger.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ClientRateLimiterTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private ClientRateLimiter limiter(int capacity, Duration refill, int maxClients) {
        return new ClientRateLimiter(capacity, refill, maxClients, now::get);
    }

    private void advance(Duration duration) {
        now.addAndGet(duration.toNanos());
    }

    @Test
    void aClientMayUseItsWholeBurstThenWaitsForTheNextToken() {
        ClientRateLimiter limiter = limiter(3, Duration.ofMinutes(1), 100);
        for (int i = 0; i < 3; i++) {
            assertThat(limiter.acquire("a")).isZero();
        }
        advance(Duration.ofSeconds(20));

        assertThat(limiter.acquire("a")).isEqualTo(Duration.ofSeconds(40));
    }

    @Test
    void tokensComeBackOneIntervalAtATimeUpToTheCapacity() {
        ClientRateLimiter limiter = limiter(2, Duration.ofMinutes(1), 100);
        limiter.acquire("a");
        limiter.acquire("a");
        advance(Duration.ofMinutes(1));
        assertThat(limiter.acquire("a")).isZero();
        assertThat(limiter.acquire("a")).isPositive();
        advance(Duration.ofHours(1));
        assertThat(limiter.acquire("a")).isZero();
        assertThat(limiter.acquire("a")).isZero();
        assertThat(limiter.acquire("a")).isPositive();
    }

    @Test
    void clientsHaveBucketsOfTheirOwn() {
        ClientRateLimiter limiter = limiter(1, Duration.ofMinutes(1), 100);
        assertThat(limiter.acquire("a")).isZero();
        assertThat(limiter.acquire("a")).isPositive();
        assertThat(limiter.acquire("b")).isZero();
    }

    @Test
    void idleClientsAreForgottenWhenTheTableIsFullButBusyOnesAreKept() {
        ClientRateLimiter limiter = limiter(1, Duration.ofMinutes(1), 2);
        limiter.acquire("idle");
        advance(Duration.ofMinutes(5));
        limiter.acquire("busy");
        limiter.acquire("newcomer");

        assertThat(limiter.acquire("busy")).as("busy keeps its empty bucket").isPositive();
        assertThat(limiter.acquire("idle")).as("idle was full again and forgotten").isZero();
    }

    @Test
    void waitingTakesNothingAndATokenGivenBackCanBeTakenAgainButNotBeyondTheCapacity() {
        ClientRateLimiter limiter = limiter(2, Duration.ofMinutes(1), 100);
        assertThat(limiter.untilNext("a")).as("a client never seen could take one").isZero();
        limiter.acquire("a");
        limiter.acquire("a");
        advance(Duration.ofSeconds(15));
        assertThat(limiter.untilNext("a")).isEqualTo(Duration.ofSeconds(45));
        assertThat(limiter.untilNext("a")).as("asking twice takes nothing").isEqualTo(Duration.ofSeconds(45));

        limiter.giveBack("a");

        assertThat(limiter.untilNext("a")).isZero();
        assertThat(limiter.acquire("a")).isZero();
        assertThat(limiter.acquire("a")).isPositive();
        advance(Duration.ofHours(1));
        limiter.giveBack("a");
        assertThat(limiter.acquire("a")).isZero();
        assertThat(limiter.acquire("a")).isZero();
        assertThat(limiter.acquire("a")).as("a token given back to a full bucket is not kept").isPositive();
    }
}
