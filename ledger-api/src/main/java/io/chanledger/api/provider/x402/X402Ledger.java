package io.chanledger.api.provider.x402;

import io.chanledger.api.provider.x402.X402Settlement.PaymentRecord;
import io.chanledger.domain.x402.X402PaymentConfirmed;
import io.chanledger.domain.x402.X402PaymentSettled;
import java.time.Clock;
import java.time.Instant;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.axonframework.modelling.command.ConcurrencyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each settled x402 payment into the ledger's event store, as the first event of the
 * payment's own stream ({@link io.chanledger.domain.x402.X402Event#paymentId}). The store keeps one
 * event per (stream, sequence): a second append of the same payment, by a re-fire after a crash
 * or by another instance at the same moment, is refused by the database and changes nothing.
 */
final class X402Ledger implements SettledPayments {

    /** The aggregate type the payments' streams are stored under. */
    static final String AGGREGATE_TYPE = "X402Payment";

    private static final Logger log = LoggerFactory.getLogger(X402Ledger.class);

    private final EventStore eventStore;
    private final Clock clock;

    X402Ledger(EventStore eventStore, Clock clock) {
        this.eventStore = eventStore;
        this.clock = clock;
    }

    @Override
    public void settled(PaymentRecord record, long blockNumber) {
        Instant settledAt = record.settledAt() == null ? clock.instant() : record.settledAt();
        X402PaymentSettled event = new X402PaymentSettled(record.key().payer(), record.payTo(), record.amount(),
                record.key().nonce(), record.transaction(), record.model() == null ? "" : record.model(), blockNumber,
                settledAt.getEpochSecond());
        try {
            eventStore.publish(new GenericDomainEventMessage<>(AGGREGATE_TYPE, event.paymentId(), 0L, event));
        } catch (AggregateStreamCreationException | ConcurrencyException alreadyStored) {
            // the store names a taken first event of a stream AggregateStreamCreationException
            log.debug("x402: payment {} is in the ledger already", record.key());
        }
    }

    /** The confirmation is the payment's event 1, after its settlement: stored once, as that is. */
    @Override
    public void confirmed(X402PaymentConfirmed confirmation) {
        try {
            eventStore.publish(new GenericDomainEventMessage<>(AGGREGATE_TYPE, confirmation.paymentId(), 1L, confirmation));
        } catch (AggregateStreamCreationException | ConcurrencyException alreadyStored) {
            log.debug("x402: payment {} is confirmed in the ledger already", confirmation.paymentId());
        }
    }
}
