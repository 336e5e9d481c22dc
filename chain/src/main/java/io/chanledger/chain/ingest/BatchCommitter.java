package io.chanledger.chain.ingest;

import io.chanledger.domain.channel.ChainFactConflictException;
import io.chanledger.domain.channel.OpenChannel;
import java.util.List;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.messaging.GenericMessage;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.axonframework.modelling.command.AggregateNotFoundException;

/**
 * Records one batch atomically: a root unit of work bound to one database transaction, in which
 * every command runs as a nested unit of work, so the events they apply, the expiry table and the
 * checkpoint are committed together or not at all. On any failure the root rolls back; the
 * nested units roll back with it, which also evicts the touched aggregates from the cache.
 */
public final class BatchCommitter {

    /** Points inside a batch where a {@link Probe} is told how far it got. */
    public enum Stage {
        /** Every command was handled; nothing is written yet. */
        COMMANDS_SENT,
        /** Events, expiries and checkpoint are written in the open transaction, which is not committed yet. */
        WRITTEN
    }

    /** Observes a batch's progress; an exception thrown from it aborts the batch like a crash would. */
    @FunctionalInterface
    public interface Probe {
        Probe NONE = (stage, range) -> { };

        void reached(Stage stage, IngestedRange range);
    }

    private final CommandGateway commandGateway;
    private final TransactionManager transactions;
    private final ListenerStore store;
    private final Probe probe;

    public BatchCommitter(CommandGateway commandGateway, TransactionManager transactions, ListenerStore store, Probe probe) {
        this.commandGateway = commandGateway;
        this.transactions = transactions;
        this.store = store;
        this.probe = probe;
    }

    public void commit(IngestedRange range, List<Object> commands, List<ExpiryChange> expiryChanges,
                       Checkpoint previous, Checkpoint next) {
        UnitOfWork<?> unitOfWork = DefaultUnitOfWork.startAndGet(new GenericMessage<>(range));
        try {
            unitOfWork.attachTransaction(transactions);
            for (Object command : commands) {
                send(command);
            }
            probe.reached(Stage.COMMANDS_SENT, range);
            unitOfWork.onPrepareCommit(u -> {
                store.write(range.listenerId(), expiryChanges, previous, next);
                probe.reached(Stage.WRITTEN, range);
            });
            unitOfWork.commit();
        } catch (RuntimeException | Error e) {
            if (unitOfWork.phase() == UnitOfWork.Phase.STARTED) {
                unitOfWork.rollback(e);
            }
            throw e;
        }
    }

    private void send(Object command) {
        try {
            commandGateway.sendAndWait(command);
        } catch (AggregateNotFoundException unknown) {
            if (command instanceof OpenChannel) {
                throw unknown;
            }
            throw new ChainFactConflictException("a log refers to a channel the ledger never opened ("
                    + command + "); was the listener started after the channel's open block?");
        }
    }
}
