package io.chanledger.api.eventstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.projections.readmodel.ReadModels;
import java.util.Map;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.AbstractEventProcessor;
import org.axonframework.eventhandling.EventProcessor;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The service's processors, streaming and subscribing, invoke their handlers through {@link ResetSupportReadOnce}. */
class ProcessorModuleTest extends LedgerIntegrationTest {

    @Autowired
    private EventProcessingConfiguration processing;

    @Test
    void everyProcessorReadsItsHandlersResetSupportOnce() {
        Map<String, EventProcessor> processors = processing.eventProcessors();
        assertThat(processors).containsKey(ReadModels.CHANNEL_PROCESSING_GROUP);
        processors.forEach((name, processor) -> {
            assertThat(((AbstractEventProcessor) processor).eventHandlerInvoker()).as(name)
                    .isInstanceOf(ResetSupportReadOnce.class);
        });
    }
}
