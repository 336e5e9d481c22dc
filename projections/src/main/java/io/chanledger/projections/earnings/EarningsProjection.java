package io.chanledger.projections.earnings;

import io.chanledger.domain.channel.ChannelClaimed;
import io.chanledger.domain.channel.RequestSettled;
import io.chanledger.domain.channel.VoucherAccepted;
import java.time.Instant;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.eventhandling.Timestamp;

/**
 * Keeps the provider's earnings read model ({@link EarningsTable}) in step with the channel
 * events: each paid request with the model it bought and what it was charged, and each on-chain
 * claim. Every handler sets rows rather than adding to them, so an event handled twice changes
 * nothing; a token reset empties the tables and the events rebuild them.
 */
@ProcessingGroup(EarningsProjection.PROCESSING_GROUP)
public class EarningsProjection {

    public static final String PROCESSING_GROUP = "provider-earnings";

    private final EarningsTable table;

    public EarningsProjection(EarningsTable table) {
        this.table = table;
    }

    @EventHandler
    public void on(VoucherAccepted event) {
        if (event.metered() && event.model() != null) {
            table.requestAdmitted(event.channelId(), event.nonce(), event.model());
        }
    }

    @EventHandler
    public void on(RequestSettled event) {
        table.requestSettled(event.channelId(), event.nonce(), event.charged(), event.settledAt());
    }

    @EventHandler
    public void on(ChannelClaimed event, @Timestamp Instant recordedAt) {
        table.claimed(event, recordedAt);
    }

    @ResetHandler
    public void reset() {
        table.deleteAll();
    }
}
