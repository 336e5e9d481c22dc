package io.chanledger.domain.contract;

import org.axonframework.config.AggregateConfigurer;

/**
 * How the application registers the (package-private) contract settings aggregate. Neither cache
 * nor snapshots: a contract's fee and token change a handful of times in its life.
 */
public final class ContractSettingsAggregateDefinition {

    private ContractSettingsAggregateDefinition() {
    }

    public static AggregateConfigurer<?> configurer() {
        return AggregateConfigurer.defaultConfiguration(ContractSettingsAggregate.class);
    }
}
