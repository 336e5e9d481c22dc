package io.chanledger.api.eventstore;

import java.util.List;
import org.axonframework.eventhandling.EventHandlerInvoker;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.MultiEventHandlerInvoker;
import org.axonframework.eventhandling.ReplayToken;
import org.axonframework.eventhandling.Segment;

/**
 * A processor's event handlers invoked as Axon's {@link MultiEventHandlerInvoker} invokes them,
 * with whether each of them supports a reset read once, when the processor is built. Axon's asks
 * every handler group for it on every event, twice (whether the processor can handle the event,
 * then handling it), before it asks whether the event is a replay at all; each time the annotated
 * handlers' adapter walks every handler method's annotations. That was 8% of the read models'
 * processor threads' time under the gateway bench (BENCHMARKS.md, "The paid request": Axon without what no one reads). A handler's
 * reset support is fixed by its annotations, so the answer cannot change while the processor runs.
 */
final class ResetSupportReadOnce implements EventHandlerInvoker {

    private final List<EventHandlerInvoker> delegates;
    private final boolean[] supportsReset;
    private final boolean anySupportsReset;

    ResetSupportReadOnce(EventHandlerInvoker invoker) {
        this.delegates = invoker instanceof MultiEventHandlerInvoker multi ? List.copyOf(multi.delegates())
                : List.of(invoker);
        this.supportsReset = new boolean[delegates.size()];
        boolean any = false;
        for (int i = 0; i < supportsReset.length; i++) {
            supportsReset[i] = delegates.get(i).supportsReset();
            any |= supportsReset[i];
        }
        this.anySupportsReset = any;
    }

    /** Whether delegate {@code i} takes {@code event}: a replayed event only if it supports a reset. */
    private boolean takes(int i, EventMessage<?> event, Segment segment) {
        return (supportsReset[i] || !ReplayToken.isReplay(event)) && delegates.get(i).canHandle(event, segment);
    }

    @Override
    public boolean canHandle(EventMessage<?> event, Segment segment) {
        for (int i = 0; i < supportsReset.length; i++) {
            if (takes(i, event, segment)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean canHandleType(Class<?> payloadType) {
        for (EventHandlerInvoker delegate : delegates) {
            if (delegate.canHandleType(payloadType)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void handle(EventMessage<?> event, Segment segment) throws Exception {
        for (int i = 0; i < supportsReset.length; i++) {
            if (takes(i, event, segment)) {
                delegates.get(i).handle(event, segment);
            }
        }
    }

    @Override
    public boolean supportsReset() {
        return anySupportsReset;
    }

    @Override
    public void performReset() {
        performReset(null);
    }

    @Override
    public <R> void performReset(R resetContext) {
        for (int i = 0; i < supportsReset.length; i++) {
            if (supportsReset[i]) {
                delegates.get(i).performReset(resetContext);
            }
        }
    }

    @Override
    public void segmentReleased(Segment segment) {
        delegates.forEach(delegate -> delegate.segmentReleased(segment));
    }
}
