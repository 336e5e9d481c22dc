package io.chanledger.api.readmodels;

import io.chanledger.projections.readmodel.ReadModels;
import org.axonframework.config.ConfigurerModule;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The processor of the channel read models: one segment by default (provider totals are shared
 * rows; more segments only contend for them on a small machine), and batches large enough that
 * a batch costs a few statements rather than a few per event.
 */
@Configuration(proxyBeanMethods = false)
class ReadModelConfiguration {

    @Bean
    ConfigurerModule channelReadModelProcessor(ReadModelProperties properties) {
        return configurer -> configurer.eventProcessing().registerPooledStreamingEventProcessorConfiguration(
                ReadModels.CHANNEL_PROCESSING_GROUP,
                (configuration, builder) -> builder
                        .batchSize(properties.batchSize())
                        .initialSegmentCount(properties.segments()));
    }
}
