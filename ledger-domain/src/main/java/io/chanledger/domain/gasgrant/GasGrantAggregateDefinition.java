package io.chanledger.domain.gasgrant;

import org.axonframework.config.AggregateConfigurer;

/**
 * How the application registers the (package-private) GasGrant aggregate. Neither cache nor
 * snapshots: a wallet's grant sees a handful of events in its life.
 */
public final class GasGrantAggregateDefinition {

    private GasGrantAggregateDefinition() {
    }

    public static AggregateConfigurer<?> configurer() {
        return AggregateConfigurer.defaultConfiguration(GasGrantAggregate.class);
    }
}
