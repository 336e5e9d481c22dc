package io.chanledger.projections.earnings;

import io.chanledger.domain.channel.ChannelClaimed;
import io.chanledger.domain.channel.RequestSettled;
import io.chanledger.domain.channel.VoucherAccepted;
import io.chanledger.projections.readmodel.BatchingProjection;
import java.time.Instant;
import java.util.List;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.messaging.Message;

/**
 * Keeps the provider's earnings read model ({@link EarningsTable}) in step with the channel
 * events: each paid request with the model it bought and what it was charged, and each on-chain
 * claim. A batch of events is gathered in memory and written in two batched statements, so a paid
 * request whose voucher and settlement share a batch (the usual case under load) costs one row
 * insert, not an insert and an update. Every write sets rows rather than adding to them, so an
 * event handled twice changes nothing; a token reset empties the tables and the events rebuild them.
 */
@ProcessingGroup(EarningsProjection.PROCESSING_GROUP)
public class EarningsProjection extends BatchingProjection<EarningsTable.Batch> {

    public static final String PROCESSING_GROUP = "provider-earnings";

    private final EarningsTable table;

    public EarningsProjection(EarningsTable table) {
        this.table = table;
    }

    @EventHandler
    public void on(VoucherAccepted event) {
        if (event.metered() && event.model() != null) {
            inBatch(batch -> batch.admitted(event.channelId(), event.nonce(), event.model()));
        }
    }

    @EventHandler
    public void on(RequestSettled event) {
        inBatch(batch -> batch.settled(event.channelId(), event.nonce(), event.charged(), event.settledAt()));
    }

    @EventHandler
    public void on(ChannelClaimed event, @Timestamp Instant recordedAt) {
        inBatch(batch -> batch.claimed(event, recordedAt));
    }

    @ResetHandler
    public void reset() {
        table.deleteAll();
    }

    @Override
    protected EarningsTable.Batch newBatch(List<? extends Message<?>> messages) {
        return new EarningsTable.Batch();
    }

    @Override
    protected void flush(EarningsTable.Batch batch) {
        table.write(batch);
    }
}
