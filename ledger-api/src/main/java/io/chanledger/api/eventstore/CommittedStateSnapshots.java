package io.chanledger.api.eventstore;

import java.io.Serial;
import java.io.Serializable;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.axonframework.common.IdentifierFactory;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventsourcing.SnapshotTrigger;
import org.axonframework.eventsourcing.SnapshotTriggerDefinition;
import org.axonframework.eventsourcing.Snapshotter;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.messaging.MetaData;
import org.axonframework.messaging.Scope;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.axonframework.modelling.command.AggregateLifecycle;
import org.axonframework.modelling.command.inspection.AnnotatedAggregate;
import org.axonframework.serialization.SerializedMessage;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.Serializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshots taken from the aggregate as a command left it, every {@code threshold} events, instead
 * of rebuilt from the store. Axon's snapshotter reads back every event since the last snapshot
 * and applies them to a new aggregate; under load that was 0.015–0.018 ms of the service's CPU
 * per paid request, besides the database's reading them (BENCHMARKS.md, "The paid request": Axon without what no one reads).
 *
 * <p>When the threshold's event has been applied, the aggregate's state is that event's: it is
 * serialized there and then, on the command's thread, under the aggregate's lock, paired with that
 * event's sequence number, so whatever later commands of the same commit do to the aggregate
 * cannot get into it. It is written only once the command's unit of work has committed: a
 * command or a commit that fails leaves no snapshot, as its events are not kept. The write runs on
 * the snapshot thread; a snapshot that fails to be written costs nothing but a longer load.
 *
 * <p>This relies on the aggregate's state being a function of its events alone (its event
 * sourcing handlers assign all of it), which is what makes replay give the same channel; a test
 * compares each snapshot with the aggregate rebuilt from its events. A threshold reached while an
 * aggregate is read from the store (after a restart, or another instance's write) calls for a
 * snapshot as Axon's own trigger does, rebuilt from the store by {@code fromStore} once the load's
 * unit of work is done.
 */
final class CommittedStateSnapshots implements SnapshotTriggerDefinition {

    private static final Logger log = LoggerFactory.getLogger(CommittedStateSnapshots.class);

    private final int threshold;
    private final Serializer serializer;
    private final EventStore eventStore;
    private final Executor writer;
    private final Snapshotter fromStore;
    /** A snapshot's meta data: none, serialized once. */
    private final SerializedObject<String> noMetaData;

    /**
     * @param threshold  events between snapshots of one aggregate
     * @param serializer the event store's snapshot serializer
     * @param eventStore where snapshots are written
     * @param writer     the thread snapshots are written on
     * @param fromStore  Axon's snapshotter, for the events counted while an aggregate was read from the store
     */
    CommittedStateSnapshots(int threshold, Serializer serializer, EventStore eventStore, Executor writer,
                            Snapshotter fromStore) {
        if (threshold < 1) {
            throw new IllegalArgumentException("a snapshot threshold is at least 1");
        }
        this.threshold = threshold;
        this.serializer = serializer;
        this.eventStore = eventStore;
        this.writer = writer;
        this.fromStore = fromStore;
        this.noMetaData = serializer.serialize(MetaData.emptyInstance(), String.class);
    }

    @Override
    public SnapshotTrigger prepareTrigger(Class<?> aggregateType) {
        return new Trigger(this, aggregateType);
    }

    /** A trigger kept with a cached aggregate is handed this definition again when the aggregate is taken from the cache. */
    @Override
    public SnapshotTrigger reconfigure(Class<?> aggregateType, SnapshotTrigger trigger) {
        if (trigger instanceof Trigger ours) {
            ours.definition = this;
            return ours;
        }
        return prepareTrigger(aggregateType);
    }

    /**
     * The aggregate's state as of {@code event}, serialized now; null when the event was not applied
     * here by a command to a live aggregate (it is being read from the store).
     */
    private DomainEventMessage<?> snapshotOf(DomainEventMessage<?> event) {
        Scope scope = currentScope();
        if (!(scope instanceof AnnotatedAggregate<?> aggregate) || !AggregateLifecycle.isLive()
                || !event.getAggregateIdentifier().equals(aggregate.identifierAsString())) {
            return null;
        }
        SerializedObject<String> payload = serializer.serialize(aggregate.getAggregateRoot(), String.class);
        return new GenericDomainEventMessage<>(event.getType(), event.getAggregateIdentifier(),
                event.getSequenceNumber(),
                new SerializedMessage<>(IdentifierFactory.getInstance().generateIdentifier(), payload, noMetaData,
                        serializer),
                GenericEventMessage.clock.instant());
    }

    private static Scope currentScope() {
        try {
            return Scope.getCurrentScope();
        } catch (IllegalStateException noScope) {
            return null;
        }
    }

    private void write(DomainEventMessage<?> snapshot) {
        try {
            writer.execute(() -> {
                try {
                    eventStore.storeSnapshot(snapshot);
                } catch (RuntimeException failure) {
                    log.warn("snapshot of {} at {} not written: {}", snapshot.getAggregateIdentifier(),
                            snapshot.getSequenceNumber(), failure.toString());
                }
            });
        } catch (RejectedExecutionException shuttingDown) {
            log.debug("snapshot of {} not written: the snapshot thread has stopped", snapshot.getAggregateIdentifier());
        }
    }

    /**
     * Counts an aggregate's events; kept with the aggregate in the cache, so the count runs on across
     * commands. Serializable as Axon's triggers are, for caches that serialize their entries.
     */
    private static final class Trigger implements SnapshotTrigger, Serializable {

        @Serial
        private static final long serialVersionUID = 1L;

        private transient CommittedStateSnapshots definition;
        private final Class<?> aggregateType;
        private int counted;

        private Trigger(CommittedStateSnapshots definition, Class<?> aggregateType) {
            this.definition = definition;
            this.aggregateType = aggregateType;
        }

        @Override
        public void eventHandled(EventMessage<?> message) {
            if (!(message instanceof DomainEventMessage<?> event) || ++counted < definition.threshold) {
                return;
            }
            counted = 0;
            CommittedStateSnapshots snapshots = definition;
            DomainEventMessage<?> snapshot = snapshots.snapshotOf(event);
            if (snapshot != null) {
                whenUnitOfWork(UnitOfWork.Phase.AFTER_COMMIT, () -> snapshots.write(snapshot));
            } else {
                // as Axon's own trigger does for an aggregate being read: once the load is done
                String aggregateIdentifier = event.getAggregateIdentifier();
                whenUnitOfWork(UnitOfWork.Phase.CLEANUP,
                        () -> snapshots.fromStore.scheduleSnapshot(aggregateType, aggregateIdentifier));
            }
        }

        /** Runs {@code task} in that phase of the running unit of work, or at once when none runs. */
        private static void whenUnitOfWork(UnitOfWork.Phase phase, Runnable task) {
            if (!CurrentUnitOfWork.isStarted()) {
                task.run();
            } else if (phase == UnitOfWork.Phase.AFTER_COMMIT) {
                CurrentUnitOfWork.get().afterCommit(u -> task.run());
            } else {
                CurrentUnitOfWork.get().onCleanup(u -> task.run());
            }
        }

        @Override
        public void initializationFinished() {
            // an aggregate read from the store is told apart by Axon's lifecycle (not live while read)
        }
    }
}
