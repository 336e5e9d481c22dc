package io.chanledger.domain.channel;

import org.axonframework.common.caching.Cache;
import org.axonframework.config.AggregateConfigurer;
import org.axonframework.eventsourcing.AggregateFactory;
import org.axonframework.eventsourcing.EventCountSnapshotTriggerDefinition;
import org.axonframework.eventsourcing.GenericAggregateFactory;

/**
 * How the application registers the (package-private) Channel aggregate: with an aggregate cache,
 * since vouchers for one channel arrive in bursts, and snapshots, since a channel may carry
 * thousands of vouchers.
 */
public final class ChannelAggregateDefinition {

    private ChannelAggregateDefinition() {
    }

    public static AggregateConfigurer<?> configurer(Cache cache, int snapshotThreshold) {
        return AggregateConfigurer.defaultConfiguration(ChannelAggregate.class)
                .configureCache(c -> cache)
                .configureCommandTargetResolver(c -> new ChannelCommandTargetResolver())
                .configureSnapshotTrigger(c -> new EventCountSnapshotTriggerDefinition(c.snapshotter(), snapshotThreshold));
    }

    /** Builds the aggregate from its events (and snapshots): what a snapshotter needs to know the type. */
    public static AggregateFactory<?> aggregateFactory() {
        return new GenericAggregateFactory<>(ChannelAggregate.class);
    }
}
