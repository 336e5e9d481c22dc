package io.chanledger.projections.provideraccount;

import io.chanledger.domain.channel.ChannelClaimed;
import io.chanledger.domain.channel.ChannelClosed;
import io.chanledger.domain.channel.ChannelExpired;
import io.chanledger.domain.channel.ChannelOpenConfirmed;
import io.chanledger.domain.channel.ChannelOpened;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.domain.channel.VoucherAccepted;
import io.chanledger.projections.channel.ChannelEvents;
import io.chanledger.projections.readmodel.BatchingProjection;
import io.chanledger.projections.readmodel.ReadModels;
import io.chanledger.projections.readmodel.RowBatch;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.messaging.Message;
import org.springframework.stereotype.Component;

/**
 * Builds the provider accounts. Each channel's part is folded from its events into
 * {@code provider_account_channel}; at the end of a batch the difference between every changed
 * part before and after is added to its provider's totals, so the totals always equal the sum of
 * the parts. Sequence numbers make redelivered events harmless, as for channel balances.
 */
@Component
@ProcessingGroup(ReadModels.CHANNEL_PROCESSING_GROUP)
public class ProviderAccountProjection extends BatchingProjection<RowBatch<ProviderChannel>> {

    private final ProviderAccountRepository repository;

    public ProviderAccountProjection(ProviderAccountRepository repository) {
        this.repository = repository;
    }

    @EventHandler
    public void on(ChannelOpened event, @SequenceNumber long sequence, @Timestamp Instant at) {
        inBatch(batch -> batch.create(event.channelId(),
                () -> ProviderChannel.opened(event.channelId(), event.provider(), event.expiry(), sequence, at)));
    }

    @EventHandler
    public void on(ChannelOpenConfirmed event, @SequenceNumber long sequence, @Timestamp Instant at) {
        inBatch(batch -> batch.update(event.channelId(), sequence,
                part -> part.confirmed(event.provider(), event.expiry(), sequence, at)));
    }

    @EventHandler
    public void on(VoucherAccepted event, @SequenceNumber long sequence, @Timestamp Instant at) {
        inBatch(batch -> batch.update(event.channelId(), sequence, part -> part.vouched(event.amount(), sequence, at)));
    }

    @EventHandler
    public void on(ChannelClaimed event, @SequenceNumber long sequence, @Timestamp Instant at) {
        inBatch(batch -> batch.update(event.channelId(), sequence,
                part -> part.claimed(event.totalClaimed(), event.fee(), sequence, at)));
    }

    @EventHandler
    public void on(ChannelExpired event, @SequenceNumber long sequence, @Timestamp Instant at) {
        inBatch(batch -> batch.update(event.channelId(), sequence,
                part -> part.withStatus(ChannelStatus.EXPIRED, sequence, at)));
    }

    @EventHandler
    public void on(ChannelClosed event, @SequenceNumber long sequence, @Timestamp Instant at) {
        inBatch(batch -> batch.update(event.channelId(), sequence,
                part -> part.withStatus(ChannelStatus.CLOSED, sequence, at)));
    }

    @ResetHandler
    public void reset() {
        repository.deleteAll();
    }

    @Override
    protected RowBatch<ProviderChannel> newBatch(List<? extends Message<?>> messages) {
        return new RowBatch<>(repository, ChannelEvents.channelIds(messages));
    }

    @Override
    protected void flush(RowBatch<ProviderChannel> batch) {
        Map<String, Totals> deltas = new HashMap<>();
        Map<String, Instant> lastActivity = new HashMap<>();
        for (RowBatch.Change<ProviderChannel> change : batch.changes()) {
            ProviderChannel before = change.before();
            ProviderChannel after = change.after();
            if (before != null) {
                deltas.merge(before.provider(), Totals.ZERO.minus(before.totals()), Totals::plus);
            }
            deltas.merge(after.provider(), after.totals(), Totals::plus);
            lastActivity.merge(after.provider(), after.lastActivity(), (a, b) -> a.isAfter(b) ? a : b);
        }
        batch.flush();
        if (!deltas.isEmpty()) {
            for (String provider : deltas.keySet()) {
                lastActivity.putIfAbsent(provider, Instant.EPOCH);
            }
            repository.addToAccounts(deltas, lastActivity);
        }
    }
}
