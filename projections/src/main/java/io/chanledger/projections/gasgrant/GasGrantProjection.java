package io.chanledger.projections.gasgrant;

import io.chanledger.domain.gasgrant.GasGrantBroadcast;
import io.chanledger.domain.gasgrant.GasGrantFailed;
import io.chanledger.domain.gasgrant.GasGrantReserved;
import io.chanledger.domain.gasgrant.GasGrantSendStarted;
import io.chanledger.domain.gasgrant.GasGranted;
import java.time.Instant;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.Timestamp;

/**
 * Keeps {@code gas_grant} in step with the GasGrant events. Its processing group is a subscribing
 * one with errors propagated (see ledger-api's {@code GasStationConfiguration}): the row is
 * written in the transaction that stores the event, or the event is not stored either.
 */
@ProcessingGroup(GasGrantProjection.PROCESSING_GROUP)
public class GasGrantProjection {

    public static final String PROCESSING_GROUP = "gas-grants";

    private final GasGrantTable table;

    public GasGrantProjection(GasGrantTable table) {
        this.table = table;
    }

    @EventHandler
    public void on(GasGrantReserved event, @Timestamp Instant at) {
        table.reserved(event.wallet(), event.attemptId(), event.amount(), event.requestedAt(), at);
    }

    @EventHandler
    public void on(GasGrantSendStarted event, @Timestamp Instant at) {
        table.sendStarted(event.wallet(), event.attemptId(), event.faucet(), event.faucetNonce(), event.fromBlock(), at);
    }

    @EventHandler
    public void on(GasGrantBroadcast event, @Timestamp Instant at) {
        table.broadcast(event.wallet(), event.attemptId(), event.txHash(), event.txNonce(), at);
    }

    @EventHandler
    public void on(GasGranted event, @Timestamp Instant at) {
        table.granted(event.wallet(), event.attemptId(), event.txHash(), event.blockNumber(), at);
    }

    @EventHandler
    public void on(GasGrantFailed event, @Timestamp Instant at) {
        table.failed(event.wallet(), event.attemptId(), event.reason().code(), event.txHash(), at);
    }
}
