package io.chanledger.api.chain;

import io.chanledger.chain.ingest.ListenerStats;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * DOWN when the listener halted (reorganisation below the finality line, wrong chain or signing
 * domain, a chain fact the ledger contradicts) or after {@code failuresBeforeDown} failed polls in
 * a row.
 */
class ListenerHealthIndicator implements HealthIndicator {

    private final ListenerStats stats;
    private final int failuresBeforeDown;

    ListenerHealthIndicator(ListenerStats stats, int failuresBeforeDown) {
        this.stats = stats;
        this.failuresBeforeDown = failuresBeforeDown;
    }

    @Override
    public Health health() {
        Health.Builder health;
        if (stats.state() == ListenerStats.State.HALTED) {
            health = Health.down().withDetail("reason", stats.haltReason().name()).withDetail("detail", stats.haltDetail());
        } else if (stats.consecutiveFailures() >= failuresBeforeDown) {
            health = Health.down().withDetail("reason", "RPC_FAILURES");
        } else if (stats.state() == ListenerStats.State.STARTING) {
            health = Health.unknown();
        } else {
            health = Health.up();
        }
        health.withDetail("state", stats.state().name())
                .withDetail("checkpointBlock", stats.checkpointBlock())
                .withDetail("finalizedBlock", stats.finalizedBlock())
                .withDetail("lagBlocks", stats.lagBlocks())
                .withDetail("consecutiveFailures", stats.consecutiveFailures());
        if (stats.lastFailure() != null) {
            health.withDetail("lastFailure", stats.lastFailure());
        }
        return health.build();
    }
}
