package io.chanledger.projections.channel;

import io.chanledger.domain.channel.ChannelEvent;
import io.chanledger.domain.channel.ChannelOpened;
import io.chanledger.projections.readmodel.BatchingProjection;
import io.chanledger.projections.readmodel.ReadModels;
import io.chanledger.projections.readmodel.RowBatch;
import io.chanledger.projections.readmodel.RowChanges;
import java.time.Instant;
import java.util.List;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.messaging.Message;
import org.springframework.stereotype.Component;

/**
 * Builds {@code channel_balance} from the Channel aggregate's events. Each batch reads the rows
 * of all its channels in one query and writes them back in a few multi-row statements; an event
 * whose sequence number is not above the row's last applied one is skipped, so replaying or
 * redelivering changes nothing. Read models derived from the balances (provider accounts) are
 * handed the batch's changes and written in the same transaction.
 */
@Component
@ProcessingGroup(ReadModels.CHANNEL_PROCESSING_GROUP)
public class ChannelBalanceProjection extends BatchingProjection<RowBatch<ChannelBalance>> {

    private final ChannelBalanceRepository repository;
    private final List<ChannelBalanceListener> listeners;

    public ChannelBalanceProjection(ChannelBalanceRepository repository, List<ChannelBalanceListener> listeners) {
        this.repository = repository;
        this.listeners = List.copyOf(listeners);
    }

    @EventHandler
    public void on(ChannelEvent event, @SequenceNumber long sequence, @Timestamp Instant at) {
        inBatch(batch -> apply(batch, event, sequence, at));
    }

    /**
     * Applies one event of a channel to {@code batch}: the first creates the row, the others
     * change it; an event applied before (by sequence number) changes nothing.
     */
    public void apply(RowChanges<ChannelBalance> batch, ChannelEvent event, long sequence, Instant at) {
        if (event instanceof ChannelOpened) {
            batch.create(event.channelId(), () -> ChannelBalance.opened(event, sequence, at));
        } else {
            batch.update(event.channelId(), sequence, row -> row.apply(event, sequence, at));
        }
    }

    /**
     * Writes changed balances (a row is inserted when its change has no {@code before}, else
     * updated) and what follows from them in the derived read models; in the caller's transaction.
     */
    public void write(List<RowBatch.Change<ChannelBalance>> changes) {
        RowBatch.write(repository, changes);
        listeners.forEach(listener -> listener.balancesChanged(changes));
    }

    @ResetHandler
    public void reset() {
        listeners.forEach(ChannelBalanceListener::reset);
        repository.deleteAll();
    }

    @Override
    protected RowBatch<ChannelBalance> newBatch(List<? extends Message<?>> messages) {
        return new RowBatch<>(repository, ChannelEvents.channelIds(messages));
    }

    @Override
    protected void flush(RowBatch<ChannelBalance> batch) {
        write(batch.changes());
    }
}
