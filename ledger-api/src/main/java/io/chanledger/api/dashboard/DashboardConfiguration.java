package io.chanledger.api.dashboard;

import io.chanledger.projections.earnings.EarningsProjection;
import io.chanledger.projections.earnings.EarningsTable;
import org.axonframework.config.ConfigurerModule;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The provider's earnings read model, built from the channel events by its own streaming processor
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

    /**
     * Up to this many events per transaction: a paid request's two events (its voucher, its
     * settlement) and the other requests of the moment are written together, not one commit each.
     */
    static final int BATCH_SIZE = 1_000;

    @Bean
    ConfigurerModule earningsProcessor() {
        String group = EarningsProjection.PROCESSING_GROUP;
        return configurer -> configurer.eventProcessing().registerPooledStreamingEventProcessor(group)
                .registerPooledStreamingEventProcessorConfiguration(group, (configuration, builder) -> builder
                        .batchSize(BATCH_SIZE)
                        .initialSegmentCount(1));
    }
}
