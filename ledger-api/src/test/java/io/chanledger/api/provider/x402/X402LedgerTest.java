package io.chanledger.api.provider.x402;

import static io.chanledger.api.provider.x402.X402Fixtures.PRICE;
import static io.chanledger.api.provider.x402.X402Fixtures.authorization;
import static io.chanledger.api.provider.x402.X402Fixtures.instance;
import static io.chanledger.api.provider.x402.X402Fixtures.offer;
import static io.chanledger.api.provider.x402.X402Fixtures.payer;
import static io.chanledger.api.provider.x402.X402Fixtures.payment;
import static io.chanledger.api.provider.x402.X402Fixtures.providerWallet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.chanledger.api.provider.x402.X402Settlement.PaymentRecord;
import io.chanledger.api.provider.x402.X402Settlement.Reservation;
import io.chanledger.api.provider.x402.X402Settlement.Settlement;
import io.chanledger.api.provider.x402.X402Settlement.Verification;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.testsupport.Devnet;
import io.chanledger.domain.x402.X402Event;
import io.chanledger.domain.x402.X402PaymentConfirmed;
import io.chanledger.domain.x402.X402PaymentSettled;
import io.chanledger.projections.earnings.EarningsProjection;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.TrackingEventProcessor;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.web3j.crypto.Credentials;

/**
 * Settled x402 payments in the one ledger: each is one event in the event store, whatever copies
 * of it are appended at once or after a restart, and the revenue per model the dashboard reads is
 * built from those events, so a replay rebuilds it.
 */
class X402LedgerTest extends LedgerIntegrationTest {

    @Autowired
    DataSource dataSource;
    @Autowired
    EventStore eventStore;
    @Autowired
    EventProcessingConfiguration processing;

    private JdbcTemplate jdbc;
    private Devnet devnet;
    private Credentials provider;
    private String payTo;
    private Credentials payer;
    private X402Ledger ledger;

    @BeforeEach
    void walletsOfTheirOwn() {
        jdbc = new JdbcTemplate(dataSource);
        devnet = devnet();
        provider = providerWallet(devnet);
        payTo = provider.getAddress().toLowerCase();
        payer = payer(devnet, BigInteger.valueOf(1_000_000));
        ledger = new X402Ledger(eventStore, Clock.systemUTC());
    }

    private ProviderFacilitator facilitator(SettledPayments hook) {
        return instance(devnet, devnet.rpcUrl(), provider, dataSource, Duration.ofSeconds(20), Clock.systemUTC(), hook)
                .facilitator();
    }

    private PaymentPayload aPayment() {
        return payment(devnet, payer, authorization(devnet, payer, payTo, PRICE), offer(devnet, payTo));
    }

    private Settlement settle(ProviderFacilitator on, PaymentPayload payment, String model) {
        Reservation reserved = on.reserve((Verification.Valid) on.verify(payment, offer(devnet, payTo)));
        return on.settle((Reservation.Reserved) reserved, model);
    }

    private List<X402PaymentSettled> eventsOf(PaymentKey key) {
        return payloadsOf(key).stream().map(X402PaymentSettled.class::cast).toList();
    }

    private List<Object> payloadsOf(PaymentKey key) {
        return eventStore.readEvents(X402Event.paymentId(key.payer(), key.nonce())).asStream()
                .map(m -> (Object) m.getPayload()).toList();
    }

    private boolean recorded(PaymentKey key) {
        return Boolean.TRUE.equals(jdbc.queryForObject("SELECT recorded FROM x402_payment WHERE payer = ? AND nonce = ?",
                Boolean.class, key.payer(), key.nonce()));
    }

    @Test
    void eachSettledPaymentIsOneEventWithWhatItPaid() {
        ProviderFacilitator facilitator = facilitator(ledger);
        PaymentPayload payment = aPayment();

        Settlement.Settled settled = (Settlement.Settled) settle(facilitator, payment, "echo-flat");

        assertThat(eventsOf(payment.key())).singleElement().satisfies(event -> {
            assertThat(event.payer()).isEqualTo(payer.getAddress().toLowerCase());
            assertThat(event.provider()).isEqualTo(payTo);
            assertThat(event.amount()).isEqualTo(PRICE);
            assertThat(event.nonce()).isEqualTo(payment.key().nonce());
            assertThat(event.transaction()).isEqualTo(settled.transaction());
            assertThat(event.model()).isEqualTo("echo-flat");
            assertThat(event.blockNumber()).isEqualTo(settled.blockNumber());
            assertThat(event.settledAt()).isPositive();
        });
        assertThat(recorded(payment.key())).isTrue();
    }

    @Test
    void copiesAppendedAtOnceStoreOneEvent() throws Exception {
        ProviderFacilitator facilitator = facilitator(SettledPayments.NONE);
        PaymentPayload payment = aPayment();
        Settlement.Settled settled = (Settlement.Settled) settle(facilitator, payment, "echo-flat");
        PaymentRecord record = facilitator.lookup(payment.key()).orElseThrow();

        int copies = 8;
        ExecutorService pool = Executors.newFixedThreadPool(copies);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        try {
            for (int i = 0; i < copies; i++) {
                // each copy as another instance of the provider would append it
                X402Ledger instanceLedger = new X402Ledger(eventStore, Clock.systemUTC());
                futures.add(pool.submit(() -> {
                    start.await();
                    instanceLedger.settled(record, settled.blockNumber());
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(eventsOf(payment.key())).hasSize(1);
    }

    @Test
    void aPaymentSettledByAProcessThatDiedIsRecordedOnceAfterTheRestart() {
        // the process dies after the payment is settled and before its event is appended
        ProviderFacilitator dying = facilitator((record, block) -> {
            throw new IllegalStateException("killed");
        });
        PaymentPayload payment = aPayment();
        assertThatThrownBy(() -> settle(dying, payment, "word-count")).hasMessageContaining("killed");
        assertThat(eventsOf(payment.key())).isEmpty();
        assertThat(recorded(payment.key())).isFalse();

        ProviderFacilitator restarted = facilitator(ledger);
        restarted.recoverUnfinished();

        assertThat(eventsOf(payment.key())).singleElement()
                .satisfies(event -> assertThat(event.model()).isEqualTo("word-count"));
        assertThat(recorded(payment.key())).isTrue();

        // dies again after the append, before noting it: told once more, still one event
        jdbc.update("UPDATE x402_payment SET recorded = FALSE WHERE payer = ? AND nonce = ?",
                payment.key().payer(), payment.key().nonce());
        facilitator(ledger).recoverUnfinished();

        assertThat(eventsOf(payment.key())).hasSize(1);
        assertThat(recorded(payment.key())).isTrue();
    }

    @Test
    void theTokensLogsInAFinalBlockConfirmTheSettlementOnce() {
        ProviderFacilitator facilitator = facilitator(ledger);
        PaymentPayload payment = aPayment();
        Settlement.Settled settled = (Settlement.Settled) settle(facilitator, payment, "echo-flat");

        assertThat(facilitator.confirmFinal(settled.blockNumber() - 1)).as("its block is not final yet").isZero();
        assertThat(payloadsOf(payment.key())).hasSize(1);

        assertThat(facilitator.confirmFinal(settled.blockNumber())).isEqualTo(1);
        assertThat(payloadsOf(payment.key())).hasSize(2).last().isInstanceOfSatisfying(X402PaymentConfirmed.class, c -> {
            assertThat(c.transaction()).isEqualTo(settled.transaction());
            assertThat(c.blockNumber()).isEqualTo(settled.blockNumber());
            assertThat(c.authorizationLogIndex()).isNotEqualTo(c.transferLogIndex());
        });

        // a second pass, or another instance's, confirms nothing again
        assertThat(facilitator.confirmFinal(settled.blockNumber())).isZero();
        ledger.confirmed((X402PaymentConfirmed) payloadsOf(payment.key()).get(1));
        assertThat(payloadsOf(payment.key())).hasSize(2);
    }

    @Test
    void aSettlementTheTokensLogsDoNotShowIsNotConfirmed() {
        ProviderFacilitator facilitator = facilitator(ledger);
        PaymentPayload payment = aPayment();
        Settlement.Settled settled = (Settlement.Settled) settle(facilitator, payment, "echo-flat");
        Settlement.Settled other = (Settlement.Settled) settle(facilitator, aPayment(), "echo-flat");
        // the row names a transaction of the same block range that did not move this payment
        jdbc.update("UPDATE x402_payment SET tx_hash = ?, block_number = ? WHERE payer = ? AND nonce = ?",
                other.transaction(), other.blockNumber(), payment.key().payer(), payment.key().nonce());

        assertThat(facilitator.confirmFinal(Math.max(settled.blockNumber(), other.blockNumber()))).isEqualTo(1);

        assertThat(payloadsOf(payment.key())).hasSize(1);
    }

    @Test
    void revenuePerModelIsBuiltFromTheEventsAndReplayRebuildsIt() {
        ProviderFacilitator facilitator = facilitator(ledger);
        settle(facilitator, aPayment(), "echo-flat");
        settle(facilitator, aPayment(), "echo-flat");
        settle(facilitator, aPayment(), "word-count");
        PaymentPayload released = aPayment();
        facilitator.release((Reservation.Reserved) facilitator.reserve(
                (Verification.Valid) facilitator.verify(released, offer(devnet, payTo))));
        List<X402Settlement.ModelRevenue> expected = List.of(
                new X402Settlement.ModelRevenue("echo-flat", 2, PRICE.multiply(BigInteger.TWO)),
                new X402Settlement.ModelRevenue("word-count", 1, PRICE));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(
                () -> assertThat(facilitator.revenueByModel()).isEqualTo(expected));

        // a read model gone wrong is rebuilt from the events
        jdbc.update("UPDATE x402_revenue SET amount = 0, model = 'lost' WHERE provider = ?", payTo);
        assertThat(facilitator.revenueByModel()).isNotEqualTo(expected);
        TrackingEventProcessor processor = processing
                .eventProcessor(EarningsProjection.PROCESSING_GROUP, TrackingEventProcessor.class).orElseThrow();
        processor.shutDown();
        processor.resetTokens();
        processor.start();

        await().atMost(Duration.ofSeconds(60)).untilAsserted(
                () -> assertThat(facilitator.revenueByModel()).isEqualTo(expected));
    }
}
