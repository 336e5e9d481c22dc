package io.chanledger.api.ledger.readmodels;

import io.chanledger.api.eventstore.CommitFlush;
import io.chanledger.api.eventstore.EventReaderSettings;
import io.chanledger.projections.readmodel.ReadModels;
import io.chanledger.projections.rebuild.RebuildSettings;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.TrackingEventProcessorConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The processor of the channel read models. One segment by default: provider accounts are rows
 * every batch touches, which parallel segments would only contend for on a small machine. A
 * tracking processor by default, because it hands the projections batches as large as
 * {@code batch-size}, so a replay writes each channel about once per batch rather than once per
 * event; the pooled processor remains one setting away. The tracking processor's batches linger
 * a few milliseconds for the events committed right after the first ({@link LingeringEventSource}).
 */
@Configuration(proxyBeanMethods = false)
class ReadModelConfiguration {

    private static final String GROUP = ReadModels.CHANNEL_PROCESSING_GROUP;

    @Bean
    RebuildSettings rebuildSettings(ReadModelProperties properties) {
        return new RebuildSettings(properties.rebuildRowsInMemory(), properties.rebuildRowsPerWrite());
    }

    /** The event store's reader keeps and batches events as these read models want them. */
    @Bean
    EventReaderSettings eventReaderSettings(ReadModelProperties properties) {
        return new EventReaderSettings(properties.cachedEvents(), properties.batchLinger());
    }

    /**
     * The read models' batches commit without waiting for the disk ({@link CommitFlush}): rows and
     * tracking token are one transaction, so a batch the database loses in a crash is projected
     * again from the events, and nothing is acknowledged on the strength of a batch alone.
     */
    @Bean
    ConfigurerModule channelReadModelTransactions(TransactionManager transactions, CommitFlush commitFlush) {
        TransactionManager deferring = commitFlush.deferring(transactions);
        return configurer -> configurer.eventProcessing().registerTransactionManager(GROUP, configuration -> deferring);
    }

    @Bean
    ConfigurerModule channelReadModelProcessor(ReadModelProperties properties) {
        if (properties.processor() == ReadModelProperties.ProcessorKind.POOLED) {
            return configurer -> configurer.eventProcessing().registerPooledStreamingEventProcessor(GROUP)
                    .registerPooledStreamingEventProcessorConfiguration(GROUP, (configuration, builder) -> builder
                            .batchSize(properties.batchSize())
                            .initialSegmentCount(properties.segments()));
        }
        TrackingEventProcessorConfiguration tracking = (properties.segments() == 1
                ? TrackingEventProcessorConfiguration.forSingleThreadedProcessing()
                : TrackingEventProcessorConfiguration.forParallelProcessing(properties.segments()))
                .andBatchSize(properties.batchSize())
                .andInitialSegmentsCount(properties.segments());
        return configurer -> configurer.eventProcessing().registerTrackingEventProcessor(GROUP,
                        configuration -> new LingeringEventSource(configuration.eventStore(), properties.batchLinger()))
                .registerTrackingEventProcessorConfiguration(GROUP, configuration -> tracking);
    }
}
