package io.chanledger.domain.provider;

import org.axonframework.config.AggregateConfigurer;
import org.axonframework.eventsourcing.AggregateFactory;
import org.axonframework.eventsourcing.EventCountSnapshotTriggerDefinition;
import org.axonframework.eventsourcing.GenericAggregateFactory;

/**
 * How the application registers the (package-private) Provider aggregate. Snapshots, since a
 * provider that flaps online and offline for months collects many events; no cache, since its
 * commands are few (registration, admin actions, status changes).
 */
public final class ProviderAggregateDefinition {

    private ProviderAggregateDefinition() {
    }

    public static AggregateConfigurer<?> configurer(int snapshotThreshold) {
        return AggregateConfigurer.defaultConfiguration(ProviderAggregate.class)
                .configureSnapshotTrigger(c -> new EventCountSnapshotTriggerDefinition(c.snapshotter(), snapshotThreshold));
    }

    /** Builds the aggregate from its events (and snapshots): what a snapshotter needs to know the type. */
    public static AggregateFactory<?> aggregateFactory() {
        return new GenericAggregateFactory<>(ProviderAggregate.class);
    }
}
