package io.chanledger.projections.readmodel;

import java.util.List;
import java.util.function.Consumer;
import org.axonframework.messaging.Message;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;

/**
 * Base of projections that work per batch of events rather than per event. A streaming processor
 * hands a whole batch to its handlers in one unit of work: the first handler call creates the
 * batch state (seeing every message of the batch, so it can read all rows in one query), each
 * call changes it in memory, and it is written just before the unit of work commits, in the same
 * transaction as the processor's token. Called outside any unit of work (tests, tools), every
 * event is its own batch and is written at once.
 *
 * @param <B> the projection's per-batch state
 */
public abstract class BatchingProjection<B> {

    private final String resourceKey = getClass().getName() + "#batch";

    /** Creates the state of a batch of {@code messages} (every message of the unit of work). */
    protected abstract B newBatch(List<? extends Message<?>> messages);

    /** Writes what the batch changed. */
    protected abstract void flush(B batch);

    protected final void inBatch(Consumer<B> work) {
        if (!CurrentUnitOfWork.isStarted()) {
            B batch = newBatch(List.of());
            work.accept(batch);
            flush(batch);
            return;
        }
        UnitOfWork<?> root = CurrentUnitOfWork.get().root();
        B batch = root.getOrComputeResource(resourceKey, key -> {
            B created = newBatch(messagesOf(root));
            root.onPrepareCommit(unitOfWork -> flush(created));
            return created;
        });
        work.accept(batch);
    }

    private static List<? extends Message<?>> messagesOf(UnitOfWork<?> unitOfWork) {
        if (unitOfWork instanceof BatchingUnitOfWork<?> batching) {
            return batching.getMessages();
        }
        Message<?> message = unitOfWork.getMessage();
        return message == null ? List.of() : List.of(message);
    }
}
