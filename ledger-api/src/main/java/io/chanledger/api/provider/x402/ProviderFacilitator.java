package io.chanledger.api.provider.x402;

import io.chanledger.api.provider.x402.X402Payments.Row;
import io.chanledger.chain.abi.Eip3009Token;
import io.chanledger.chain.ingest.Finality;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.RpcException;
import io.chanledger.chain.tx.SendResult;
import io.chanledger.chain.tx.TransactionRequest;
import io.chanledger.chain.tx.TransactionSender;
import io.chanledger.domain.eip712.Eip3009TypedData;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.projections.x402.X402RevenueTable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/**
 * The provider's own facilitator: {@link X402Settlement} on the provider's wallet, the token and
 * the provider's database.
 *
 * <p>A settlement signs at the wallet's next nonce ({@link WalletNonces}) and writes the
 * transaction into the payment's row (committed) before it hands it to the node.
 */
public final class ProviderFacilitator implements X402Settlement {

    private static final Logger log = LoggerFactory.getLogger(ProviderFacilitator.class);
    private static final int RECOVERY_BATCH = 100;
    /** A transaction younger than this is left to the request that sent it (which may be about to hand it over). */
    private static final Duration SENT_GRACE = Duration.ofSeconds(3);

    private final EthApi eth;
    private final TransactionSender sender;
    private final X402Payments payments;
    private final Clock clock;
    private final String token;
    private final String payTo;
    private final Duration reservationTimeout;
    private final SettledPayments settled;
    private final X402RevenueTable revenue;
    private final ExactPaymentVerifier verifier;
    private final SettlementConfirmation confirmation;
    private final WalletNonces nonces;
    private final Set<PaymentKey> settling = ConcurrentHashMap.newKeySet();

    /**
     * @param sender         signs with the provider's wallet, which is also {@code payTo}
     * @param validityMargin how long before {@code validBefore} a payment must still be valid, for
     *                       its transaction to be mined in time
     * @param reservationTimeout after how long a reservation whose request never settled or released
     *                       it (its process died) is released by {@link #recoverUnfinished()}
     */
    public ProviderFacilitator(EthApi eth, TransactionSender sender, DataSource dataSource, Clock clock, long chainId,
                               String token, Duration validityMargin, Duration reservationTimeout,
                               SettledPayments settled) {
        this.eth = eth;
        this.sender = sender;
        this.payments = new X402Payments(new JdbcTemplate(dataSource));
        this.revenue = new X402RevenueTable(new JdbcTemplate(dataSource));
        this.clock = clock;
        this.token = Hex.normalizeAddress(token);
        this.payTo = sender.address();
        this.reservationTimeout = reservationTimeout;
        this.settled = settled;
        this.nonces = new WalletNonces(dataSource, payTo, sender::pendingNonce);
        this.verifier = new ExactPaymentVerifier(eth, payments, clock, this.token, payTo,
                Eip3009TypedData.usdc(chainId, token), validityMargin);
        this.confirmation = new SettlementConfirmation(eth, payments, this.token, payTo, settled);
    }

    /** The wallet payments are made to and settled by. */
    public String payTo() {
        return payTo;
    }

    /** The token (asset) settled. */
    public String token() {
        return token;
    }

    @Override
    public Verification verify(PaymentPayload payload, PaymentRequirements requirements) {
        return verifier.verify(payload, requirements);
    }

    @Override
    public Reservation reserve(Verification.Valid payment) {
        try {
            return reserveOrThrow(payment);
        } catch (DataAccessException e) {
            log.warn("x402: payment {} not reserved, the database failed: {}", payment.key(), e.toString());
            return new Reservation.Refused(X402Reason.UNEXPECTED_SETTLE_ERROR, "the payment could not be reserved");
        }
    }

    private Reservation reserveOrThrow(Verification.Valid payment) {
        PaymentPayload payload = payment.payload();
        PaymentKey key = payload.key();
        String reservationId = UUID.randomUUID().toString();
        Instant now = clock.instant();
        if (payments.insertReserved(payload.authorization(), payload.signature(), reservationId, now)
                || payments.reserveReleased(key, reservationId, now)) {
            return new Reservation.Reserved(key, reservationId, payment);
        }
        Optional<Row> row = payments.find(key);
        if (row.isEmpty()) {
            return new Reservation.Refused(X402Reason.UNEXPECTED_SETTLE_ERROR, "the payment could not be reserved");
        }
        PaymentRecord record = row.get().record();
        return switch (record.status()) {
            case SETTLED -> new Reservation.AlreadySettled(record);
            case RESERVED, SENDING -> new Reservation.InProgress(record);
            case FAILED -> new Reservation.Refused(record.failure() == null ? X402Reason.UNEXPECTED_SETTLE_ERROR
                    : record.failure(), "this payment's settlement failed");
            // released again between the two statements: the caller may try once more
            case RELEASED -> new Reservation.Refused(X402Reason.INVALID_TRANSACTION_STATE,
                    "the payment is being reserved by another request");
        };
    }

    @Override
    public void release(Reservation.Reserved reservation) {
        try {
            payments.release(reservation.key(), reservation.reservationId());
        } catch (DataAccessException e) {
            // nothing was sent: the reservation lapses after the reservation timeout instead
            log.warn("x402: reservation of {} not released now, the database failed: {}", reservation.key(), e.toString());
        }
    }

    @Override
    public Optional<PaymentRecord> lookup(PaymentKey key) {
        return payments.find(key).map(Row::record);
    }

    @Override
    public java.util.List<ModelRevenue> revenueByModel() {
        return revenue.perModel(payTo).stream()
                .map(m -> new ModelRevenue(m.model(), m.payments(), m.amount())).toList();
    }

    /**
     * Tells {@link SettledPayments} of a settled payment, then notes it told: a process that dies
     * between the two leaves it to {@link #recoverUnfinished()}, which tells it again.
     */
    private void record(Row row) {
        Long block = row.blockNumber();
        if (row.status() != PaymentStatus.SETTLED || block == null) {
            return;
        }
        settled.settled(row.record(), block);
        payments.markRecorded(row.key());
    }

    @Override
    public Settlement settle(Reservation.Reserved reservation, String model) {
        PaymentKey key = reservation.key();
        ExactAuthorization a = reservation.payment().payload().authorization();
        TransactionRequest request = TransactionRequest.call(token, Eip3009Token.transferWithAuthorization(a.from(),
                a.to(), a.value(), a.validAfter(), a.validBefore(), a.nonce(),
                Hex.decode(reservation.payment().payload().signature())));
        Optional<Row> held = payments.find(key);
        if (held.isEmpty() || held.get().status() != PaymentStatus.RESERVED
                || !held.get().reservationId().equals(reservation.reservationId())) {
            return outcomeOf(key); // settled (or being settled) by an earlier call, or given up: never a second transaction
        }
        settling.add(key);
        try {
            TransactionSender.Signed sent;
            try {
                sent = signAndSend(reservation, model, request);
            } catch (NotSent notSent) {
                return notSent.failure != null ? notSent.failure : outcomeOf(key);
            }
            return conclude(key, a, sender.awaitReceipt(request, sent), sent.txHash());
        } catch (RpcException | DataAccessException e) {
            log.warn("x402: settlement of {} interrupted: {}", key, e.toString());
            Optional<Row> row = payments.find(key);
            if (row.isPresent() && row.get().status() == PaymentStatus.SENDING) {
                return new Settlement.Pending(row.get().record().transaction());
            }
            // nothing was written down, so nothing was sent: the authorization stays unused and may come again
            payments.release(key, reservation.reservationId());
            return new Settlement.Failed(X402Reason.UNEXPECTED_SETTLE_ERROR, null, "the settlement could not be sent");
        } finally {
            settling.remove(key);
        }
    }

    private static final class NotSent extends Exception {
        private final Settlement.Failed failure;

        /** {@code failure} null: the reservation was no longer held; the row tells what became of the payment. */
        NotSent(Settlement.Failed failure) {
            super(failure == null ? "not held" : failure.detail(), null, false, false);
            this.failure = failure;
        }
    }

    /** Signs at the wallet's next nonce, writes the transaction down, hands it to the node; under the wallet's lock. */
    private TransactionSender.Signed signAndSend(Reservation.Reserved reservation, String model,
                                                 TransactionRequest request) throws NotSent {
        PaymentKey key = reservation.key();
        ExactAuthorization a = reservation.payment().payload().authorization();
        return nonces.withNext(nonce -> {
            TransactionSender.Signed signed;
            try {
                signed = sender.signAt(request, nonce);
            } catch (TransactionSender.NotSigned e) {
                if (e.outcome() instanceof SendResult.TransientFailure) {
                    payments.release(key, reservation.reservationId());
                    throw new NotSent(new Settlement.Failed(X402Reason.UNEXPECTED_SETTLE_ERROR, null,
                            "the chain could not be reached; nothing was sent"));
                }
                X402Reason reason = verifier.diagnose(a, null);
                payments.failReserved(key, reservation.reservationId(), reason, model, clock.instant());
                throw new NotSent(new Settlement.Failed(reason, null, "the transfer would revert"));
            }
            if (!payments.markSending(key, reservation.reservationId(), model, signed.txHash(),
                    nonce.longValueExact(), signed.rawTransaction(), clock.instant())) {
                throw new NotSent(null);
            }
            if (sender.submit(signed) == TransactionSender.Submission.REFUSED) {
                X402Reason reason = verifier.diagnose(a, null);
                payments.failSent(key, signed.txHash(), reason, clock.instant());
                throw new NotSent(new Settlement.Failed(reason, null, "the node refused the transfer"));
            }
            return signed;
        });
    }

    /** What the payment's row says became of it, as a settlement outcome. */
    private Settlement outcomeOf(PaymentKey key) {
        Optional<Row> row = payments.find(key);
        if (row.isEmpty()) {
            return new Settlement.Failed(X402Reason.INVALID_TRANSACTION_STATE, null, "the payment is not reserved");
        }
        PaymentRecord record = row.get().record();
        return switch (record.status()) {
            case SETTLED -> new Settlement.Settled(record.transaction(), record.key().payer(), record.amount(),
                    row.get().blockNumber() == null ? 0 : row.get().blockNumber());
            case SENDING -> new Settlement.Pending(record.transaction());
            case FAILED -> new Settlement.Failed(record.failure() == null ? X402Reason.UNEXPECTED_SETTLE_ERROR
                    : record.failure(), record.transaction(), "this payment's settlement failed");
            case RESERVED, RELEASED -> new Settlement.Failed(X402Reason.INVALID_TRANSACTION_STATE, null,
                    "the reservation is no longer held");
        };
    }

    /** The end of a sent settlement, from its receipt; {@code Pending} while there is none. */
    private Settlement conclude(PaymentKey key, ExactAuthorization a, SendResult result, String txHash) {
        return switch (result) {
            case SendResult.Mined mined -> concludeMined(key, a, txHash);
            case SendResult.Reverted reverted -> {
                X402Reason reason = verifier.diagnose(a, reverted.revertReason());
                payments.failSent(key, txHash, reason, clock.instant());
                yield new Settlement.Failed(reason, txHash, "the transfer reverted: " + reverted.revertReason());
            }
            default -> new Settlement.Pending(txHash);
        };
    }

    private Settlement concludeMined(PaymentKey key, ExactAuthorization a, String txHash) {
        // the sender saw the receipt a moment ago; a node that lost it again leaves the payment to recovery
        return eth.receipt(txHash).map(receipt -> concludeReceipt(key, a, receipt))
                .orElseGet(() -> new Settlement.Pending(txHash));
    }

    private Settlement concludeReceipt(PaymentKey key, ExactAuthorization a, TransactionReceipt receipt) {
        String txHash = receipt.getTransactionHash().toLowerCase(Locale.ROOT);
        long block = receipt.getBlockNumber().longValueExact();
        if (!receipt.isStatusOK()) {
            X402Reason reason = verifier.diagnose(a, null);
            payments.failSent(key, txHash, reason, clock.instant());
            return new Settlement.Failed(reason, txHash, "the transfer reverted");
        }
        boolean transferred = Eip3009Token.transfers(receipt, token).stream().anyMatch(t -> t.from().equals(a.from())
                && t.to().equals(payTo) && t.value().equals(a.value()));
        if (!transferred) {
            log.error("x402: transaction {} of payment {} was mined without the transfer authorized", txHash, key);
            payments.failSent(key, txHash, X402Reason.UNEXPECTED_SETTLE_ERROR, clock.instant());
            return new Settlement.Failed(X402Reason.UNEXPECTED_SETTLE_ERROR, txHash, "the receipt shows no such transfer");
        }
        if (payments.markSettled(key, txHash, block, clock.instant())) {
            payments.find(key).ifPresent(this::record);
        }
        return new Settlement.Settled(txHash, a.from(), a.value(), block);
    }

    /**
     * Confirms the recorded payments settled in blocks up to the chain's final block under
     * {@code finality}, from the token's logs ({@link SettlementConfirmation}). Returns how many.
     */
    public int confirmFinal(Finality finality) {
        return confirmation.confirmFinal(finality);
    }

    /** As {@link #confirmFinal(Finality)}, with the final block given. */
    public int confirmFinal(long finalBlock) {
        return confirmation.confirmFinal(finalBlock);
    }

    /**
     * Finishes what requests left (a crash, a receipt that came late): a sent transaction's receipt
     * concludes its payment; one the node lost is handed to it again (the same bytes: it lands at
     * most once); one the node refuses while the authorization is used elsewhere or expired fails.
     * A reservation older than the reservation timeout is released. Safe on several instances at
     * once. Returns how many payments it concluded or released.
     */
    public int recoverUnfinished() {
        int done = 0;
        for (Row row : payments.unrecorded(payTo, RECOVERY_BATCH)) {
            try {
                record(row);
                done++;
            } catch (RuntimeException e) {
                log.warn("x402: settled payment {} not recorded in the ledger yet: {}", row.key(), e.toString());
            }
        }
        Instant now = clock.instant();
        for (Row row : payments.unfinished(payTo, now.minus(SENT_GRACE), now.minus(reservationTimeout), RECOVERY_BATCH)) {
            if (settling.contains(row.key())) {
                continue;
            }
            try {
                if (recover(row)) {
                    done++;
                }
            } catch (RuntimeException e) {
                log.warn("x402: unfinished payment {} not resolved yet: {}", row.key(), e.toString());
            }
        }
        return done;
    }

    private boolean recover(Row row) {
        PaymentKey key = row.key();
        if (row.status() == PaymentStatus.RESERVED) {
            boolean released = payments.release(key, row.reservationId());
            if (released) {
                log.info("x402: reservation of {} released, its request is gone", key);
            }
            return released;
        }
        ExactAuthorization a = new ExactAuthorization(key.payer(), row.record().payTo(), row.record().amount(),
                row.validAfter(), row.validBefore(), key.nonce());
        String txHash = row.record().transaction();
        Optional<TransactionReceipt> receipt = eth.receipt(txHash);
        if (receipt.isPresent()) {
            return !(concludeReceipt(key, a, receipt.get()) instanceof Settlement.Pending);
        }
        if (sender.rebroadcast(row.rawTransaction())) {
            return false; // with the node again, or still there: its receipt concludes it on a later pass
        }
        Optional<TransactionReceipt> late = eth.receipt(txHash);
        if (late.isPresent()) {
            return !(concludeReceipt(key, a, late.get()) instanceof Settlement.Pending);
        }
        X402Reason reason = verifier.diagnose(a, null);
        if (reason == X402Reason.UNEXPECTED_SETTLE_ERROR) {
            return false; // the node refuses it for a reason that may pass; try again later
        }
        log.warn("x402: transaction {} of payment {} cannot be sent again ({}); the payment failed", txHash, key, reason);
        return payments.failSent(key, txHash, reason, clock.instant());
    }
}
