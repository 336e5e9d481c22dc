package io.chanledger.api.eventstore;

import io.chanledger.domain.channel.ChannelAggregateDefinition;
import io.chanledger.domain.provider.ProviderAggregateDefinition;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventsourcing.AggregateSnapshotter;
import org.axonframework.eventsourcing.Snapshotter;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.messaging.annotation.HandlerDefinition;
import org.axonframework.messaging.annotation.ParameterResolverFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Snapshots of the Channel and Provider aggregates. Axon's Spring snapshotter knows only the
 * aggregates it finds as Spring beans, and these are registered through configurer modules: it
 * refused every snapshot ("Aggregate Type is unknown in this snapshotter"), so a channel read from
 * the store (a restart, another instance's write) was rebuilt from all its events. Snapshots are
 * taken on a thread of their own once the commit that called for them is done, so a voucher's
 * batch never waits for its channel's history to be read; a snapshot already under way for an
 * aggregate is not started twice. A channel's snapshots are mostly not rebuilt at all but taken
 * from the channel in memory ({@link CommittedStateSnapshots}); this snapshotter rebuilds those
 * called for while a channel is read from the store, and the Provider's.
 */
@Configuration(proxyBeanMethods = false)
class SnapshotConfiguration {

    /** The snapshot thread, shut down with the application. */
    record SnapshotThread(ExecutorService executor) implements AutoCloseable {

        @Override
        public void close() {
            executor.shutdown();
        }
    }

    @Bean(destroyMethod = "close")
    SnapshotThread snapshotThread() {
        return new SnapshotThread(Executors.newSingleThreadExecutor(Thread.ofPlatform().name(ServiceThreads.SNAPSHOTTER).daemon()
                .factory()));
    }

    @Bean
    Snapshotter aggregateSnapshotter(EventStore eventStore, TransactionManager transactionManager,
                                     ParameterResolverFactory parameterResolverFactory,
                                     HandlerDefinition handlerDefinition, SnapshotThread snapshotThread) {
        return AggregateSnapshotter.builder()
                .eventStore(eventStore)
                .aggregateFactories(ChannelAggregateDefinition.aggregateFactory(),
                        ProviderAggregateDefinition.aggregateFactory())
                .parameterResolverFactory(parameterResolverFactory)
                .handlerDefinition(handlerDefinition)
                .transactionManager(transactionManager)
                .executor(snapshotThread.executor())
                .build();
    }
}
