package io.chanledger.api.marketplace.directory;

import io.chanledger.api.http.ApiProblem;
import io.chanledger.projections.marketplace.MarketplaceCatalog;
import io.chanledger.projections.marketplace.ProviderDirectoryProjection;
import io.chanledger.projections.rebuild.EventTable;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventTrackerStatus;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventhandling.WrappedToken;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Read-your-writes for the provider directory (docs/api.md, Read your writes). A command answers
 * {@value #WRITTEN_THROUGH}: the global index of the provider's newest event once it is stored. A
 * read given that index in {@value #READ_AFTER} waits, at most {@link #WAIT}, until this
 * instance's directory processor has handled that event and the directory it serves includes it;
 * when time runs out it answers what it has, with {@value #READ_BEHIND}. The index is the
 * provider's newest event, not merely the store's head: the events of one provider are stored in
 * order, so once the processor has handled it, it has handled every earlier one of the provider.
 */
@Component
class DirectoryWrites {

    static final String WRITTEN_THROUGH = "X-CHAN-Written-Through";
    static final String READ_AFTER = "X-CHAN-Read-After";
    static final String READ_BEHIND = "X-CHAN-Read-Behind";
    static final Duration WAIT = Duration.ofSeconds(2);

    private static final Pattern GLOBAL_INDEX = Pattern.compile("[0-9]{1,18}");
    private static final long POLL_MILLIS = 10;

    private final EventTable events;
    private final EventProcessingConfiguration processing;
    private final MarketplaceCatalog catalog;

    DirectoryWrites(EventTable events, EventProcessingConfiguration processing, MarketplaceCatalog catalog) {
        this.events = events;
        this.processing = processing;
        this.catalog = catalog;
    }

    /** Tells the client of a command what to send with its next read of the directory. */
    void answerWrittenThrough(HttpServletResponse response, String providerId) {
        response.setHeader(WRITTEN_THROUGH, Long.toString(events.newestOf(providerId)));
    }

    /**
     * Waits (bounded) until the directory includes the event {@code readAfter} names; nothing to
     * wait for without one. A value that is not a global index of this store is a 400.
     */
    void awaitReadAfter(String readAfter, HttpServletResponse response) {
        if (readAfter == null) {
            return;
        }
        long index = globalIndex(readAfter);
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!handled(index)) {
            if (System.nanoTime() >= deadline) {
                response.setHeader(READ_BEHIND, "true");
                return;
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                response.setHeader(READ_BEHIND, "true");
                return;
            }
        }
        // the processor's transaction moved the change counter: the snapshot catches up at once
        catalog.refreshIfChanged();
    }

    private long globalIndex(String readAfter) {
        if (!GLOBAL_INDEX.matcher(readAfter).matches()) {
            throw invalid(readAfter, "must be the decimal global index a command answered in " + WRITTEN_THROUGH);
        }
        long index = Long.parseLong(readAfter);
        if (index > events.head()) {
            throw invalid(readAfter, "is beyond the newest event of this store: not an index it answered");
        }
        return index;
    }

    /** Whether every segment of the directory's processor here has handled the event at {@code index}. */
    private boolean handled(long index) {
        StreamingEventProcessor processor = processing.eventProcessor(ProviderDirectoryProjection.PROCESSING_GROUP,
                StreamingEventProcessor.class).orElse(null);
        Map<Integer, EventTrackerStatus> segments = processor == null ? Map.of() : processor.processingStatus();
        if (segments.isEmpty()) {
            return false;
        }
        for (EventTrackerStatus segment : segments.values()) {
            if (!handled(segment.getTrackingToken(), index)) {
                return false;
            }
        }
        return true;
    }

    private static boolean handled(TrackingToken token, long index) {
        TrackingToken position = token == null ? null : WrappedToken.unwrapLowerBound(token);
        if (position instanceof GapAwareTrackingToken gapAware) {
            // an index below the token's is handled unless it is a gap: an event not visible yet then
            return gapAware.getIndex() >= index && !gapAware.getGaps().contains(index);
        }
        return position != null && position.position().orElse(-1) >= index;
    }

    private static ApiProblem invalid(String readAfter, String reason) {
        return new ApiProblem(HttpStatus.BAD_REQUEST, "invalid_read_token", READ_AFTER + " " + reason,
                Map.of("header", READ_AFTER, "value", readAfter.length() > 40 ? readAfter.substring(0, 40) : readAfter));
    }
}
