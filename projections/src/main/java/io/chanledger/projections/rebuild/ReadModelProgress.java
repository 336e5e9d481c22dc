package io.chanledger.projections.rebuild;

import io.chanledger.projections.readmodel.ReadModels;
import java.util.Collection;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventTrackerStatus;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.springframework.stereotype.Component;

/** Where the channel read-model processor stands, against the head of the event store. */
@Component
public class ReadModelProgress {

    private final EventProcessingConfiguration processing;
    private final EventTable table;
    private final AtomicBoolean bulkRebuilding = new AtomicBoolean();

    public ReadModelProgress(EventProcessingConfiguration processing, EventTable table) {
        this.processing = processing;
        this.table = table;
    }

    public StreamingEventProcessor processor() {
        return processing.eventProcessor(ReadModels.CHANNEL_PROCESSING_GROUP, StreamingEventProcessor.class)
                .orElseThrow(() -> new IllegalStateException("no processor " + ReadModels.CHANNEL_PROCESSING_GROUP));
    }

    /** The global index of the newest event in the store (0 when it is empty). */
    public long head() {
        return table.head();
    }

    /**
     * The lowest position among the segments this instance processes: every event up to it has
     * been applied. Empty when this instance holds no segment or a segment has not started.
     */
    public OptionalLong position() {
        Collection<EventTrackerStatus> statuses = processor().processingStatus().values();
        long lowest = Long.MAX_VALUE;
        for (EventTrackerStatus status : statuses) {
            OptionalLong position = status.getCurrentPosition();
            if (position.isEmpty()) {
                return OptionalLong.empty();
            }
            lowest = Math.min(lowest, position.getAsLong());
        }
        return statuses.isEmpty() ? OptionalLong.empty() : OptionalLong.of(lowest);
    }

    /**
     * Whether this instance is rebuilding the read models: after a reset, before reaching the
     * position it had. (Axon keeps calling a segment "replaying" after that, until an event newer
     * than the reset position arrives; the models are complete again before.)
     */
    public boolean replaying() {
        return bulkRebuilding.get()
                || processor().processingStatus().values().stream().anyMatch(ReadModelProgress::rebuilding);
    }

    /** Set while a replay rebuilds the read models in bulk, with the processor stopped. */
    void rebuilding(boolean rebuilding) {
        bulkRebuilding.set(rebuilding);
    }

    private static boolean rebuilding(EventTrackerStatus status) {
        if (!status.isReplaying()) {
            return false;
        }
        OptionalLong current = status.getCurrentPosition();
        OptionalLong reset = status.getResetPosition();
        return current.isEmpty() || reset.isPresent() && current.getAsLong() < reset.getAsLong();
    }
}
