package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One check of a provider at a time, and an alert's answer from a check that began after the alert:
 * the provider below goes down while a round's check of it, begun when it was up, is under way.
 */
class ChecksUnderWayTest {

    private final ChecksUnderWay<String, Boolean> checks = new ChecksUnderWay<>();
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final AtomicBoolean up = new AtomicBoolean(true);
    private final AtomicInteger probes = new AtomicInteger();
    private final CountDownLatch heldCheckBegun = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void stopThreads() {
        release.countDown();
        threads.shutdownNow();
    }

    /**
     * Starts {@code run} on another thread with a check that reads whether the provider is up as it
     * begins, then waits for {@link #release}; returns once that check has begun.
     */
    private Future<Boolean> heldCheck(Function<Supplier<Boolean>, Boolean> run) {
        Future<Boolean> outcome = threads.submit(() -> run.apply(() -> {
            probes.incrementAndGet();
            boolean answered = up.get();
            heldCheckBegun.countDown();
            awaitLatch(release);
            return answered;
        }));
        awaitLatch(heldCheckBegun);
        return outcome;
    }

    private Supplier<Boolean> probe() {
        return () -> {
            probes.incrementAndGet();
            return up.get();
        };
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aFreshCheckWaitsForTheOneUnderWayThenProbesAgain() throws Exception {
        Future<Boolean> round = heldCheck(check -> checks.runUnlessUnderWay("p", check));
        up.set(false);

        Future<Boolean> alert = threads.submit(() -> checks.runFresh("p", probe()));
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> !alert.isDone());
        release.countDown();

        assertThat(round.get(10, TimeUnit.SECONDS)).as("the round's check ran").isTrue();
        assertThat(alert.get(10, TimeUnit.SECONDS)).as("what the provider does after it went down").isFalse();
        assertThat(probes).hasValue(2);
    }

    @Test
    void aFreshCheckAskedAgainAndAgainWhileRoundsRunNeverAnswersWithAnEarlierState() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Runnable rounds = () -> {
            while (!stop.get()) {
                checks.runUnlessUnderWay("p", probe());
            }
        };
        Future<?> roundsRunning = threads.submit(rounds);
        try {
            for (int i = 0; i < 2_000; i++) {
                boolean state = i % 2 == 0;
                up.set(state);
                assertThat(checks.runFresh("p", probe())).as("ask %d", i).isEqualTo(state);
            }
        } finally {
            stop.set(true);
            roundsRunning.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aRoundsCheckIsSkippedWhileAnotherIsUnderWay() throws Exception {
        Future<Boolean> alert = heldCheck(check -> checks.runFresh("p", check));

        boolean ran = checks.runUnlessUnderWay("p", probe());
        boolean otherProviderRan = checks.runUnlessUnderWay("q", probe());
        release.countDown();

        assertThat(ran).isFalse();
        assertThat(otherProviderRan).as("another provider's check").isTrue();
        assertThat(alert.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(probes).hasValue(2);
        assertThat(checks.runUnlessUnderWay("p", probe())).as("once it ended").isTrue();
    }

    @Test
    void aCheckThatFailsFailsItsCallerAndLeavesNothingBehind() {
        assertThatThrownBy(() -> checks.runFresh("p", () -> {
            throw new IllegalStateException("could not record");
        })).isInstanceOf(IllegalStateException.class).hasMessage("could not record");

        assertThat(checks.runFresh("p", probe())).isTrue();
        assertThat(CompletableFuture.supplyAsync(() -> checks.runUnlessUnderWay("p", probe()), threads).join()).isTrue();
    }
}
