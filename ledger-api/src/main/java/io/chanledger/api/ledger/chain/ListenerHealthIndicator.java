package io.chanledger.api.ledger.chain;

import io.chanledger.chain.ingest.ChainListener;
import io.chanledger.chain.ingest.Finality;
import io.chanledger.chain.ingest.ListenerStats;
import java.time.Duration;
import java.time.Instant;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;

/**
 * DOWN when the listener halted (reorganisation below the finality line, wrong chain or signing
 * domain, a chain fact the ledger contradicts), after {@code failuresBeforeDown} failed polls in
 * a row, or when what the ledger has recorded has trailed the chain's head beyond the lag limits
 * ({@code chan.listener.lag}) for longer than {@code grace}: a listener that cannot advance, such
 * as one waiting for a finalized block that does not move, leaves the ledger blind although every
 * poll succeeds.
 */
public final class ListenerHealthIndicator implements HealthIndicator {

    private final ListenerStats stats;
    private final Finality finality;
    private final int failuresBeforeDown;
    private final Duration grace;

    ListenerHealthIndicator(ChainListener listener, int failuresBeforeDown, Duration grace) {
        this.stats = listener.stats();
        this.finality = listener.settings().finality();
        this.failuresBeforeDown = failuresBeforeDown;
        this.grace = grace;
    }

    @Override
    public Health health() {
        ListenerReport report = report();
        return Health.status(report.status()).withDetails(report.details()).build();
    }

    /** The listener's state now, as its health says it. */
    public ListenerReport report() {
        Status status;
        String reason = null;
        String detail = null;
        Instant behindSince = stats.behindSince();
        if (stats.state() == ListenerStats.State.HALTED) {
            status = Status.DOWN;
            reason = stats.haltReason().name();
            detail = stats.haltDetail();
        } else if (stats.consecutiveFailures() >= failuresBeforeDown) {
            status = Status.DOWN;
            reason = "RPC_FAILURES";
        } else if (behindSince != null && !behindSince.plus(grace).isAfter(Instant.now())) {
            status = Status.DOWN;
            reason = "BEHIND_HEAD";
            detail = behindHead(behindSince);
        } else if (stats.state() == ListenerStats.State.STARTING) {
            status = Status.UNKNOWN;
        } else {
            status = Status.UP;
        }
        return new ListenerReport(status.getCode(), reason, detail, stats.state().name(), stats.headBlock(),
                stats.finalizedBlock(), stats.checkpointBlock(), stats.lagBlocks(), stats.blocksBehind(),
                stats.secondsBehind(), behindSince, stats.consecutiveFailures(), stats.lastFailure());
    }

    /** Why the ledger's view is behind, and what to look at: the final block itself, or reading up to it. */
    private String behindHead(Instant since) {
        String lag = "the ledger has recorded the chain up to block " + stats.checkpointBlock() + ", "
                + stats.blocksBehind() + " blocks" + (stats.secondsBehind() < 0 ? "" : " and " + stats.secondsBehind()
                + " s of chain time") + " behind its head (block " + stats.headBlock() + "), since " + since + "; ";
        if (stats.lagBlocks() > 0) {
            return lag + "the final blocks up to block " + stats.finalizedBlock() + " are still being read";
        }
        return lag + "the final block (finality " + finality + ") is block " + stats.finalizedBlock()
                + ", which trails the head that far. On a local devnet (anvil finalizes a block only 64 blocks later"
                + " and mines a block per transaction) follow its head instead: chan.listener.finality=depth,"
                + " chan.listener.depth=0";
    }
}
