package io.chanledger.api.ledger.readmodels;

import io.chanledger.projections.rebuild.ReadModelProgress;
import java.time.Duration;
import org.awaitility.Awaitility;

/** Waits, with a deadline, for the channel read models to apply every event stored so far. */
public final class ReadModelsCaughtUp {

    private ReadModelsCaughtUp() {
    }

    public static void await(ReadModelProgress progress, Duration timeout) {
        long head = progress.head();
        Awaitility.await("the read models reach event " + head).atMost(timeout).pollInterval(Duration.ofMillis(10))
                .until(() -> progress.position().orElse(-1) >= head && !progress.replaying());
    }
}
