package io.chanledger.api.marketplace.directory;

import io.chanledger.api.config.LedgerProperties;
import io.chanledger.api.ledger.wallet.WalletAudience;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.domain.provider.ProviderAggregateDefinition;
import io.chanledger.projections.marketplace.CatalogReader;
import io.chanledger.projections.marketplace.JdbcProviderDirectoryStore;
import io.chanledger.projections.marketplace.MarketplaceCatalog;
import io.chanledger.projections.marketplace.ProviderDirectoryProjection;
import io.chanledger.projections.marketplace.ProviderFeedbackStore;
import io.chanledger.projections.marketplace.ProviderHealthStore;
import io.chanledger.projections.marketplace.ProviderTelemetryStore;
import java.time.Clock;
import org.axonframework.config.ConfigurerModule;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Wires the Provider aggregate, the directory projection, the in-memory catalog built from it, and
 * the stores written beside the events (health checks, agents' feedback and telemetry).
 */
@Configuration(proxyBeanMethods = false)
class MarketplaceConfiguration {

    @Bean
    ConfigurerModule providerAggregateModule(LedgerProperties ledger) {
        return configurer -> configurer.configureAggregate(
                ProviderAggregateDefinition.configurer(ledger.snapshots().provider()));
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    MarketplaceCatalog marketplaceCatalog(JdbcTemplate jdbc, PlatformTransactionManager transactions,
                                          MarketplaceProperties properties, Clock clock) {
        CatalogReader reader = new CatalogReader(jdbc, transactions, properties.historyLimit(),
                properties.feedback().window(), properties.telemetry().window());
        return new MarketplaceCatalog(reader, clock, properties.catalog().debounce(), properties.catalog().pollInterval());
    }

    @Bean
    ProviderDirectoryProjection providerDirectoryProjection(JdbcTemplate jdbc, MarketplaceCatalog catalog) {
        return new ProviderDirectoryProjection(new JdbcProviderDirectoryStore(jdbc), catalog::requestRefresh);
    }

    @Bean
    ProviderHealthStore providerHealthStore(JdbcTemplate jdbc) {
        return new ProviderHealthStore(jdbc);
    }

    @Bean
    ProviderFeedbackStore providerFeedbackStore(JdbcTemplate jdbc) {
        return new ProviderFeedbackStore(jdbc);
    }

    @Bean
    ProviderTelemetryStore providerTelemetryStore(JdbcTemplate jdbc) {
        return new ProviderTelemetryStore(jdbc);
    }

    @Bean
    ValidatorRegistry validatorRegistry(MarketplaceCatalog catalog, ObjectMapper mapper, Clock clock,
                                        MarketplaceProperties properties) {
        return new ValidatorRegistry(catalog::current, mapper, clock, properties.registryCache(), properties.subnet(),
                properties.providerProtocol());
    }

    /** Wallet-signed requests to the marketplace name it by its public URL (a provider's gateway, if any, wins). */
    @Bean
    WalletAudience marketplaceAudience(MarketplaceProperties properties) {
        return new WalletAudience.Marketplace(properties.url(""));
    }
}
