package io.chanledger.projections.x402;

import io.chanledger.domain.x402.X402PaymentSettled;
import io.chanledger.projections.earnings.EarningsProjection;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;

/**
 * Keeps the x402 revenue read model ({@link X402RevenueTable}) in step with the settled x402
 * payments. It shares the processor of the channel earnings, so that a replay of the provider's
 * earnings rebuilds both from the one event store. A payment handled twice changes nothing.
 */
@ProcessingGroup(EarningsProjection.PROCESSING_GROUP)
public class X402RevenueProjection {

    private final X402RevenueTable table;

    public X402RevenueProjection(X402RevenueTable table) {
        this.table = table;
    }

    @EventHandler
    public void on(X402PaymentSettled event) {
        table.settled(event);
    }

    @ResetHandler
    public void reset() {
        table.deleteAll();
    }
}
