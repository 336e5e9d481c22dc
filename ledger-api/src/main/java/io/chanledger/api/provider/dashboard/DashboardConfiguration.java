package io.chanledger.api.provider.dashboard;

import io.chanledger.api.eventstore.CommitFlush;
import io.chanledger.api.ledger.readmodels.LingeringEventSource;
import io.chanledger.api.ledger.readmodels.ReadModelProperties;
import io.chanledger.projections.earnings.EarningsProjection;
import io.chanledger.projections.earnings.EarningsTable;
import io.chanledger.projections.x402.X402RevenueProjection;
import io.chanledger.projections.x402.X402RevenueTable;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.TrackingEventProcessorConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The provider's earnings read model, built from the channel events by its own tracking processor
 * ({@code provider-earnings}), in batches so that the requests' events of one moment share a
 * transaction.
 */
@Configuration(proxyBeanMethods = false)
class DashboardConfiguration {

    @Bean
    EarningsTable earningsTable(JdbcTemplate jdbc) {
        return new EarningsTable(jdbc);
    }

    @Bean
    EarningsProjection earningsProjection(EarningsTable table) {
        return new EarningsProjection(table);
    }

    /** The x402 revenue per model, from the settled x402 payments, in the same processor. */
    @Bean
    X402RevenueProjection x402RevenueProjection(JdbcTemplate jdbc) {
        return new X402RevenueProjection(new X402RevenueTable(jdbc));
    }

    /**
     * Up to this many events per transaction: a paid request's two events (its voucher, its
     * settlement) and the other requests of the moment are written together, not one commit each.
     */
    static final int BATCH_SIZE = 1_000;

    /**
     * A tracking processor reading as the channel read models' does: its batches linger for the
     * events committed right after their first, and commit without waiting for the disk (rows and
     * token go back together if the database loses them; see {@link CommitFlush}).
     */
    @Bean
    ConfigurerModule earningsProcessor(ReadModelProperties readModels, TransactionManager transactions,
                                       CommitFlush commitFlush) {
        String group = EarningsProjection.PROCESSING_GROUP;
        TransactionManager deferring = commitFlush.deferring(transactions);
        TrackingEventProcessorConfiguration tracking = TrackingEventProcessorConfiguration
                .forSingleThreadedProcessing().andBatchSize(BATCH_SIZE).andInitialSegmentsCount(1);
        return configurer -> configurer.eventProcessing()
                .registerTrackingEventProcessor(group,
                        configuration -> new LingeringEventSource(configuration.eventStore(), readModels.batchLinger()))
                .registerTrackingEventProcessorConfiguration(group, configuration -> tracking)
                .registerTransactionManager(group, configuration -> deferring);
    }
}
