package io.chanledger.domain.channel;

import org.axonframework.common.caching.Cache;
import java.util.function.Function;
import org.axonframework.config.AggregateConfigurer;
import org.axonframework.config.Configuration;
import org.axonframework.eventsourcing.AggregateFactory;
import org.axonframework.eventsourcing.EventCountSnapshotTriggerDefinition;
import org.axonframework.eventsourcing.GenericAggregateFactory;
import org.axonframework.eventsourcing.SnapshotTriggerDefinition;

/**
 * How the application registers the (package-private) Channel aggregate: with an aggregate cache,
 * since vouchers for one channel arrive in bursts, and snapshots, since a channel may carry
 * thousands of vouchers.
 */
public final class ChannelAggregateDefinition {

    private ChannelAggregateDefinition() {
    }

    /** Snapshots every {@code snapshotThreshold} events, rebuilt from the store by Axon's snapshotter. */
    public static AggregateConfigurer<?> configurer(Cache cache, int snapshotThreshold) {
        return configurer(cache, c -> new EventCountSnapshotTriggerDefinition(c.snapshotter(), snapshotThreshold));
    }

    /** Snapshots when {@code snapshots} calls for them. */
    public static AggregateConfigurer<?> configurer(Cache cache,
                                                    Function<Configuration, SnapshotTriggerDefinition> snapshots) {
        return AggregateConfigurer.defaultConfiguration(ChannelAggregate.class)
                .configureCache(c -> cache)
                .configureCommandTargetResolver(c -> new ChannelCommandTargetResolver())
                .configureSnapshotTrigger(snapshots);
    }

    /** Builds the aggregate from its events (and snapshots): what a snapshotter needs to know the type. */
    public static AggregateFactory<?> aggregateFactory() {
        return new GenericAggregateFactory<>(ChannelAggregate.class);
    }
}
