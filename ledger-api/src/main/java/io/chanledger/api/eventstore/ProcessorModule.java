package io.chanledger.api.eventstore;

import org.axonframework.config.Configuration;
import org.axonframework.config.EventProcessingConfigurer;
import org.axonframework.config.EventProcessingModule;
import org.axonframework.eventhandling.EventHandlerInvoker;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.EventProcessor;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingEventProcessorConfiguration;
import org.axonframework.messaging.StreamableMessageSource;
import org.axonframework.messaging.SubscribableMessageSource;

/**
 * Axon's event processing module, whose processors (tracking, pooled and subscribing) invoke their
 * handlers through {@link ResetSupportReadOnce}: they are built as Axon builds them, with all their
 * settings, and only the invoker Axon hands them is wrapped.
 */
final class ProcessorModule extends EventProcessingModule {

    @Override
    protected EventProcessor trackingEventProcessor(String name, EventHandlerInvoker invoker,
                                                    TrackingEventProcessorConfiguration configuration,
                                                    StreamableMessageSource<TrackedEventMessage<?>> source) {
        return super.trackingEventProcessor(name, new ResetSupportReadOnce(invoker), configuration, source);
    }

    @Override
    protected EventProcessor subscribingEventProcessor(String name, EventHandlerInvoker invoker,
                                                       SubscribableMessageSource<? extends EventMessage<?>> source) {
        return super.subscribingEventProcessor(name, new ResetSupportReadOnce(invoker), source);
    }

    @Override
    protected EventProcessor pooledStreamingEventProcessor(
            String name, EventHandlerInvoker invoker, Configuration configuration,
            StreamableMessageSource<TrackedEventMessage<?>> source,
            EventProcessingConfigurer.PooledStreamingProcessorConfiguration processorConfiguration) {
        return super.pooledStreamingEventProcessor(name, new ResetSupportReadOnce(invoker), configuration, source,
                processorConfiguration);
    }
}
