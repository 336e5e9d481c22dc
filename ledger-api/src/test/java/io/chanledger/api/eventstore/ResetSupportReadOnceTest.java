package io.chanledger.api.eventstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.axonframework.eventhandling.EventHandlerInvoker;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.EventMessageHandler;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.GenericTrackedEventMessage;
import org.axonframework.eventhandling.GlobalSequenceTrackingToken;
import org.axonframework.eventhandling.MultiEventHandlerInvoker;
import org.axonframework.eventhandling.ReplayToken;
import org.axonframework.eventhandling.Segment;
import org.axonframework.eventhandling.SimpleEventHandlerInvoker;
import org.axonframework.eventhandling.TrackingToken;
import org.junit.jupiter.api.Test;

/**
 * {@link ResetSupportReadOnce} takes and hands over exactly the events Axon's own invoker does, live
 * and replayed, and resets the same handlers; it asks whether they support a reset only once.
 */
class ResetSupportReadOnceTest {

    /** A handler of every event that records what it handled and how often it was asked about resets. */
    private static final class Recorder implements EventMessageHandler {

        private final boolean supportsReset;
        private final List<Object> handled = new ArrayList<>();
        private int askedAboutReset;
        private int reset;

        Recorder(boolean supportsReset) {
            this.supportsReset = supportsReset;
        }

        @Override
        public Object handle(EventMessage<?> event) {
            handled.add(event.getPayload());
            return null;
        }

        @Override
        public boolean supportsReset() {
            askedAboutReset++;
            return supportsReset;
        }

        @Override
        public <R> void prepareReset(R resetContext) {
            reset++;
        }
    }

    private record Handlers(Recorder replaying, Recorder liveOnly, EventHandlerInvoker axons) {

        static Handlers of() {
            Recorder replaying = new Recorder(true);
            Recorder liveOnly = new Recorder(false);
            return new Handlers(replaying, liveOnly, new MultiEventHandlerInvoker(
                    SimpleEventHandlerInvoker.builder().eventHandlers(replaying).build(),
                    SimpleEventHandlerInvoker.builder().eventHandlers(liveOnly).build()));
        }
    }

    @Test
    void takesHandsOverAndResetsAsAxonsInvokerAskingAboutResetsOnce() throws Exception {
        Handlers ours = Handlers.of();
        EventHandlerInvoker readOnce = new ResetSupportReadOnce(ours.axons());
        int askedOnBuild = ours.replaying().askedAboutReset + ours.liveOnly().askedAboutReset;
        Handlers axons = Handlers.of();

        List<EventMessage<?>> events = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            events.add(i % 2 == 0 ? live(i) : replayed(i));
        }
        for (EventMessage<?> event : events) {
            assertThat(readOnce.canHandle(event, Segment.ROOT_SEGMENT))
                    .isEqualTo(axons.axons().canHandle(event, Segment.ROOT_SEGMENT));
            readOnce.handle(event, Segment.ROOT_SEGMENT);
            axons.axons().handle(event, Segment.ROOT_SEGMENT);
        }
        assertThat(ours.liveOnly().handled).as("a handler without reset support sees no replay")
                .containsExactly("event 0", "event 2", "event 4", "event 6", "event 8", "event 10", "event 12",
                        "event 14", "event 16", "event 18")
                .isEqualTo(axons.liveOnly().handled);
        assertThat(ours.replaying().handled).hasSize(20).isEqualTo(axons.replaying().handled);
        assertThat(ours.replaying().askedAboutReset + ours.liveOnly().askedAboutReset)
                .as("asked when built, never per event").isEqualTo(askedOnBuild);
        assertThat(axons.replaying().askedAboutReset).as("Axon's own asks per event").isGreaterThan(20);

        assertThat(readOnce.supportsReset()).isTrue();
        readOnce.performReset("context");
        axons.axons().performReset("context");
        assertThat(ours.replaying().reset).isEqualTo(axons.replaying().reset).isEqualTo(1);
        assertThat(ours.liveOnly().reset).isEqualTo(axons.liveOnly().reset).isZero();
    }

    @Test
    void aReplayedEventIsNotTakenWhenNoHandlerSupportsAReset() {
        EventHandlerInvoker liveOnly = new ResetSupportReadOnce(
                SimpleEventHandlerInvoker.builder().eventHandlers(new Recorder(false)).build());

        assertThat(liveOnly.supportsReset()).isFalse();
        assertThat(liveOnly.canHandle(replayed(1), Segment.ROOT_SEGMENT)).isFalse();
        assertThat(liveOnly.canHandle(live(2), Segment.ROOT_SEGMENT)).isTrue();
    }

    private static EventMessage<?> live(int i) {
        return new GenericTrackedEventMessage<>(new GlobalSequenceTrackingToken(100 + i),
                GenericEventMessage.asEventMessage("event " + i));
    }

    /** An event before the position its processor was reset at: a replay. */
    private static EventMessage<?> replayed(int i) {
        TrackingToken token = ReplayToken.createReplayToken(new GlobalSequenceTrackingToken(1_000),
                new GlobalSequenceTrackingToken(i));
        return new GenericTrackedEventMessage<>(token, GenericEventMessage.asEventMessage("event " + i));
    }
}
