package io.chanledger.projections.channel;

import io.chanledger.domain.channel.ChannelClaimed;
import io.chanledger.domain.channel.ChannelClosed;
import io.chanledger.domain.channel.ChannelExpired;
import io.chanledger.domain.channel.ChannelOpenConfirmed;
import io.chanledger.domain.channel.ChannelOpened;
import io.chanledger.domain.channel.CloseAuthorized;
import io.chanledger.domain.channel.VoucherAccepted;
import io.chanledger.projections.readmodel.BatchingProjection;
import io.chanledger.projections.readmodel.ReadModels;
import io.chanledger.projections.readmodel.RowBatch;
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
 * of all its channels in one query and writes them back once; an event whose sequence number is
 * not above the row's last applied one is skipped, so replaying or redelivering changes nothing.
 */
@Component
@ProcessingGroup(ReadModels.CHANNEL_PROCESSING_GROUP)
public class ChannelBalanceProjection extends BatchingProjection<RowBatch<ChannelBalance>> {

    private final ChannelBalanceRepository repository;

    public ChannelBalanceProjection(ChannelBalanceRepository repository) {
        this.repository = repository;
    }

    @EventHandler
    public void on(ChannelOpened event, @SequenceNumber long sequence, @Timestamp Instant at) {
        inBatch(batch -> batch.create(event.channelId(), () -> ChannelBalance.opened(event, sequence, at)));
    }

    @EventHandler
    public void on(ChannelOpenConfirmed event, @SequenceNumber long sequence, @Timestamp Instant at) {
        inBatch(batch -> batch.update(event.channelId(), sequence, row -> row.confirmed(event, sequence, at)));
    }

    @EventHandler
    public void on(VoucherAccepted event, @SequenceNumber long sequence, @Timestamp Instant at) {
        inBatch(batch -> batch.update(event.channelId(), sequence, row -> row.vouched(event, sequence, at)));
    }

    @EventHandler
    public void on(ChannelClaimed event, @SequenceNumber long sequence, @Timestamp Instant at) {
        inBatch(batch -> batch.update(event.channelId(), sequence, row -> row.claimed(event, sequence, at)));
    }

    @EventHandler
    public void on(ChannelExpired event, @SequenceNumber long sequence, @Timestamp Instant at) {
        inBatch(batch -> batch.update(event.channelId(), sequence, row -> row.expired(sequence, at)));
    }

    @EventHandler
    public void on(ChannelClosed event, @SequenceNumber long sequence, @Timestamp Instant at) {
        inBatch(batch -> batch.update(event.channelId(), sequence, row -> row.closed(event, sequence, at)));
    }

    @EventHandler
    public void on(CloseAuthorized event, @SequenceNumber long sequence, @Timestamp Instant at) {
        inBatch(batch -> batch.update(event.channelId(), sequence, row -> row.closeAuthorized(event, sequence, at)));
    }

    @ResetHandler
    public void reset() {
        repository.deleteAll();
    }

    @Override
    protected RowBatch<ChannelBalance> newBatch(List<? extends Message<?>> messages) {
        return new RowBatch<>(repository, ChannelEvents.channelIds(messages));
    }

    @Override
    protected void flush(RowBatch<ChannelBalance> batch) {
        batch.flush();
    }
}
