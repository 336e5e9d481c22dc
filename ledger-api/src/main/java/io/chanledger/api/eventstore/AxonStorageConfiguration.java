package io.chanledger.api.eventstore;

import io.chanledger.api.config.LedgerProperties;
import io.chanledger.domain.channel.ChannelAggregateDefinition;
import io.chanledger.domain.contract.ContractSettingsAggregateDefinition;
import io.chanledger.storage.EventStoreMapper;
import java.time.Duration;
import java.util.List;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.jdbc.PersistenceExceptionResolver;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.Configurer;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.config.EventProcessingModule;
import org.axonframework.eventhandling.tokenstore.TokenStore;
import org.axonframework.eventhandling.tokenstore.jdbc.JdbcTokenStore;
import org.axonframework.eventhandling.tokenstore.jdbc.TokenSchema;
import org.axonframework.eventhandling.EventBusSpanFactory;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.json.JacksonSerializer;
import org.axonframework.spring.messaging.unitofwork.SpringTransactionManager;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Axon without Axon Server: the event store and token store are tables of our own database
 * (created by Flyway), and every message is JSON written by the event store's own mapper
 * ({@link EventStoreMapper}).
 */
@Configuration(proxyBeanMethods = false)
public class AxonStorageConfiguration {

    /**
     * How often the event store's reader reads with no commit of this process to wake it: the
     * events other instances commit reach this one's processors within it. Axon's default.
     */
    static final Duration READER_FETCH_DELAY = Duration.ofSeconds(1);

    @Bean
    @Primary
    Serializer serializer() {
        return JacksonSerializer.builder().objectMapper(EventStoreMapper.create()).build();
    }

    @Bean
    @Qualifier("messageSerializer")
    Serializer messageSerializer(Serializer serializer) {
        return serializer;
    }

    @Bean
    @Qualifier("eventSerializer")
    Serializer eventSerializer(Serializer serializer) {
        return serializer;
    }

    /**
     * Axon's transactions are Spring's, as Axon's own auto-configuration makes them, except on a
     * thread deciding a command alone ({@link LoneCommit}): there it starts none, and the command's
     * append commits by itself.
     */
    @Bean
    TransactionManager axonTransactionManager(PlatformTransactionManager transactions) {
        return LoneCommit.startingNoneWhileOpen(new SpringTransactionManager(transactions));
    }

    /**
     * Axon's event store, as Axon's auto-configuration makes it, with its reader woken as
     * {@link LingeringReaderEventStore} says and as many events kept in memory for the processors as
     * {@link EventReaderSettings#cachedEvents()} says.
     */
    @Qualifier("eventStore")
    @Bean(name = "eventBus")
    EmbeddedEventStore eventStore(EventStorageEngine storageEngine, org.axonframework.config.Configuration configuration,
                                  EventReaderSettings reader) {
        return new LingeringReaderEventStore(EmbeddedEventStore.builder()
                .storageEngine(storageEngine)
                .messageMonitor(configuration.messageMonitor(EventStore.class, "eventStore"))
                .spanFactory(configuration.getComponent(EventBusSpanFactory.class)),
                reader.cachedEvents(), READER_FETCH_DELAY, reader.batchLinger());
    }

    @Bean
    EventSchema eventSchema() {
        return eventSchemaOf("domain_event_entry");
    }

    /** The columns of the service's event table, as those of {@code eventTable}. */
    static EventSchema eventSchemaOf(String eventTable) {
        return EventSchema.builder()
                .eventTable(eventTable)
                .snapshotTable("snapshot_event_entry")
                .globalIndexColumn("global_index")
                .timestampColumn("time_stamp")
                .eventIdentifierColumn("event_identifier")
                .aggregateIdentifierColumn("aggregate_identifier")
                .sequenceNumberColumn("sequence_number")
                .typeColumn("type")
                .payloadTypeColumn("payload_type")
                .payloadRevisionColumn("payload_revision")
                .payloadColumn("payload")
                .metaDataColumn("meta_data")
                .build();
    }

    @Bean
    EventStorageEngine eventStorageEngine(Serializer serializer,
                                          PersistenceExceptionResolver persistenceExceptionResolver,
                                          org.axonframework.config.Configuration configuration,
                                          ConnectionProvider connectionProvider,
                                          TransactionManager transactionManager,
                                          EventSchema eventSchema) {
        return OneQueryPerBatchEventStorageEngine.of(JdbcEventStorageEngine.builder()
                .snapshotSerializer(serializer)
                .eventSerializer(serializer)
                .upcasterChain(configuration.upcasterChain())
                .snapshotFilter(configuration.snapshotFilter())
                .persistenceExceptionResolver(persistenceExceptionResolver)
                .connectionProvider(connectionProvider)
                .schema(eventSchema)
                .dataType(String.class)
                .batchSize(LedgerProperties.EVENT_FETCH_SIZE), transactionManager);
    }

    @Bean
    TokenStore tokenStore(ConnectionProvider connectionProvider, Serializer serializer) {
        TokenSchema schema = TokenSchema.builder()
                .setTokenTable("token_entry")
                .setProcessorNameColumn("processor_name")
                .setSegmentColumn("segment")
                .setTokenColumn("token")
                .setTokenTypeColumn("token_type")
                .setTimestampColumn("time_stamp")
                .setOwnerColumn("owner")
                .build();
        return JdbcTokenStore.builder()
                .connectionProvider(connectionProvider)
                .serializer(serializer)
                .schema(schema)
                .contentType(String.class)
                .build();
    }

    /**
     * Axon's event processing module, whose processors invoke their handlers through {@link
     * ResetSupportReadOnce}; Axon's auto-configuration steps back for it.
     */
    @Bean
    EventProcessingModule eventProcessingModule() {
        return new ProcessorModule();
    }

    /**
     * Read models are built by pooled streaming processors, whose segments instances share. One
     * segment for a new store: the coordinator offers every event, a voucher's too, to each
     * segment's work package, and the directory and gas grants see few events of their own.
     */
    @Bean
    ConfigurerModule pooledStreamingProcessors() {
        return configurer -> configurer.eventProcessing().usingPooledStreamingEventProcessors(
                (configuration, builder) -> builder.initialSegmentCount(1));
    }

    /**
     * Messages carry no correlation data. Axon's default copies a trace id and a correlation id,
     * taken from the message being handled, into every message it creates: each event's meta data,
     * each command's, each event handler's result. Nothing in the ledger reads them (the ids are of
     * internal messages no one else sees), and under load writing them, reading each event's meta
     * data back to copy them, and the copies cost about a twentieth of a paid request's CPU
     * (BENCHMARKS.md, "The paid request": Axon without what no one reads). Applied after Axon's own modules, which register its default.
     */
    @Bean
    ConfigurerModule noCorrelationData() {
        return new ConfigurerModule() {
            @Override
            public void configureModule(Configurer configurer) {
                configurer.configureCorrelationDataProviders(configuration -> List.of());
            }

            @Override
            public int order() {
                return Integer.MAX_VALUE;
            }
        };
    }

    /** The Channel aggregate: cached, and snapshotted from its state in memory ({@link CommittedStateSnapshots}). */
    @Bean
    ConfigurerModule channelAggregateModule(LedgerProperties ledger, BoundedAggregateCache channelCache,
                                            Serializer serializer, SnapshotConfiguration.SnapshotThread snapshotThread) {
        return configurer -> configurer.configureAggregate(ChannelAggregateDefinition.configurer(channelCache,
                c -> new CommittedStateSnapshots(ledger.snapshots().channel(), serializer, c.eventStore(),
                        snapshotThread.executor(), c.snapshotter())));
    }

    /** The channel contract's fee and token changes, recorded by the chain listener. */
    @Bean
    ConfigurerModule contractSettingsAggregateModule() {
        return configurer -> configurer.configureAggregate(ContractSettingsAggregateDefinition.configurer());
    }
}
