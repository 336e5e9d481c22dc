package io.chanledger.api.readmodels;

import io.chanledger.projections.rebuild.ReadModelProgress;
import java.time.Duration;
import java.util.OptionalLong;

/** Waits, with a deadline, for the channel read models to apply every event stored so far. */
public final class ReadModelsCaughtUp {

    private ReadModelsCaughtUp() {
    }

    public static void await(ReadModelProgress progress, Duration timeout) {
        long head = progress.head();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            OptionalLong position = progress.position();
            if (position.isPresent() && position.getAsLong() >= head && !progress.replaying()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the read models did not reach event " + head + " within " + timeout
                        + " (at " + position + ")");
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }
}
