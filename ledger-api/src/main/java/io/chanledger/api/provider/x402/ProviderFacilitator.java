package io.chanledger.api.provider.x402;

import io.chanledger.api.provider.x402.X402Payments.Row;
import io.chanledger.chain.abi.Eip3009Token;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.RpcException;
import io.chanledger.chain.tx.SendResult;
import io.chanledger.chain.tx.TransactionRequest;
import io.chanledger.chain.tx.TransactionSender;
import io.chanledger.domain.eip712.ContractSignatureRule;
import io.chanledger.domain.eip712.Eip3009TypedData;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.eip712.SignatureVerdict;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/**
 * The provider's own facilitator: {@link X402Settlement} on the provider's wallet, the token and
 * the provider's database.
 *
 * <p>Nonces of the wallet come from {@code x402_wallet_nonce}: a settlement locks the wallet's row,
 * takes the larger of its next nonce and the node's pending count, signs, writes the transaction
 * into the payment's row (committed, before anything is sent), hands it to the node and only then
 * moves the row's nonce on and lets the lock go. Instances of one provider on one database thus
 * sign one transaction per nonce, and a nonce whose transaction the node refused is used again
 * rather than left as a gap that would hold every later transaction back. Within this process one
 * settlement at a time holds the lock (the others wait here, not on a pooled connection).
 */
public final class ProviderFacilitator implements X402Settlement {

    private static final Logger log = LoggerFactory.getLogger(ProviderFacilitator.class);
    private static final int RECOVERY_BATCH = 100;
    /** A transaction younger than this is left to the request that sent it (which may be about to hand it over). */
    private static final Duration SENT_GRACE = Duration.ofSeconds(3);

    private final EthApi eth;
    private final TransactionSender sender;
    private final DataSource dataSource;
    private final X402Payments payments;
    private final Clock clock;
    private final String token;
    private final String payTo;
    private final Eip3009TypedData typedData;
    private final Duration validityMargin;
    private final Duration reservationTimeout;
    private final SettledPayments settled;
    private final ReentrantLock walletLock = new ReentrantLock(true);
    private final Set<PaymentKey> settling = ConcurrentHashMap.newKeySet();

    /** Told of each payment the chain shows settled, once (step of the one ledger). */
    @FunctionalInterface
    public interface SettledPayments {
        SettledPayments NONE = (record, blockNumber) -> { };

        void settled(PaymentRecord record, long blockNumber);
    }

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
        this.dataSource = dataSource;
        this.payments = new X402Payments(new JdbcTemplate(dataSource));
        this.clock = clock;
        this.token = Hex.normalizeAddress(token);
        this.payTo = sender.address();
        this.typedData = Eip3009TypedData.usdc(chainId, token);
        this.validityMargin = validityMargin;
        this.reservationTimeout = reservationTimeout;
        this.settled = settled;
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
        try {
            return verifyOrThrow(payload, requirements);
        } catch (RpcException e) {
            log.warn("x402: payment of {} not verified, the chain could not be read: {}", payload.payer(), e.getMessage());
            return new Verification.Invalid(X402Reason.UNEXPECTED_VERIFY_ERROR, payload.payer(),
                    "the chain could not be read");
        }
    }

    private Verification verifyOrThrow(PaymentPayload payload, PaymentRequirements requirements) {
        ExactAuthorization a = payload.authorization();
        String payer = a.from();
        if (!X402Network.SCHEME_EXACT.equals(payload.scheme())) {
            return invalid(X402Reason.UNSUPPORTED_SCHEME, payer, "only the scheme exact is accepted");
        }
        if (!X402Network.SCHEME_EXACT.equals(requirements.scheme())) {
            return invalid(X402Reason.INVALID_SCHEME, payer, "the requirements are not of the scheme exact");
        }
        if (!X402Network.isPolygon(payload.network(), payload.x402Version())
                || !(X402Network.isPolygon(requirements.network(), 1) || X402Network.isPolygon(requirements.network(), 2))) {
            return invalid(X402Reason.INVALID_NETWORK, payer, "payments are taken on Polygon only");
        }
        if (!sameAddress(requirements.asset(), token)) {
            return invalid(X402Reason.INVALID_PAYMENT_REQUIREMENTS, payer, "the asset is not the token settled here");
        }
        if (!sameAddress(requirements.payTo(), payTo)) {
            return invalid(X402Reason.INVALID_PAYMENT_REQUIREMENTS, payer, "payTo is not this provider's wallet");
        }
        PaymentRequirements accepted = payload.accepted();
        if (accepted != null && !(accepted.scheme().equals(requirements.scheme())
                && accepted.network().equals(requirements.network()) && accepted.amount().equals(requirements.amount())
                && sameAddress(accepted.asset(), requirements.asset()) && sameAddress(accepted.payTo(), requirements.payTo()))) {
            return invalid(X402Reason.INVALID_PAYMENT_REQUIREMENTS, payer, "the accepted offer is not the one made");
        }
        if (!sameAddress(a.to(), payTo)) {
            return invalid(X402Reason.INVALID_RECIPIENT, payer, "the authorization pays someone else");
        }
        if (!a.value().equals(requirements.amount())) {
            return invalid(X402Reason.INVALID_VALUE, payer, "the authorization's value is not the price");
        }
        byte[] digest = typedData.transferDigest(a.from(), a.to(), a.value(), a.validAfter(), a.validBefore(), a.nonce());
        byte[] signature = Hex.decode(payload.signature());
        if (!signedByPayer(digest, signature, payer)) {
            return invalid(X402Reason.INVALID_SIGNATURE, payer, "the signature is not the payer's");
        }
        Optional<Row> known = payments.find(payload.key());
        if (known.isPresent() && known.get().status() != PaymentStatus.RELEASED) {
            // the same payment again: reserve() tells the caller what became of it (kept answer, in progress, failed)
            return known.get().signature().equals(payload.signature()) && known.get().record().amount().equals(a.value())
                    ? new Verification.Valid(payload, requirements, payer)
                    : invalid(X402Reason.INVALID_TRANSACTION_STATE, payer, "the authorization's nonce is used");
        }
        long now = clock.instant().getEpochSecond();
        if (a.validAfter().compareTo(BigInteger.valueOf(now)) > 0) {
            return invalid(X402Reason.INVALID_VALID_AFTER, payer, "the authorization is not valid yet");
        }
        if (a.validBefore().compareTo(BigInteger.valueOf(now + validityMargin.toSeconds())) <= 0) {
            return invalid(X402Reason.INVALID_VALID_BEFORE, payer, "the authorization expires before it can be settled");
        }
        if (authorizationUsed(payer, a.nonce())) {
            return invalid(X402Reason.INVALID_TRANSACTION_STATE, payer, "the authorization's nonce is used on chain");
        }
        if (balanceOf(payer).compareTo(a.value()) < 0) {
            return invalid(X402Reason.INSUFFICIENT_FUNDS, payer, "the payer's balance does not cover the payment");
        }
        return new Verification.Valid(payload, requirements, payer);
    }

    /**
     * As the token decides: a key's signature under the contract signature rule (what ecrecover in
     * FiatToken accepts), else, for an address with code, ERC-1271 {@code isValidSignature}.
     */
    private boolean signedByPayer(byte[] digest, byte[] signature, String payer) {
        SignatureVerdict verdict = ContractSignatureRule.recover(digest, signature);
        if (verdict instanceof SignatureVerdict.Recovered recovered && recovered.isSigner(payer)) {
            return true;
        }
        String code = eth.code(payer, "latest");
        if (code.length() <= 2) {
            return false;
        }
        try {
            return Eip3009Token.isMagicValue(eth.call(null, payer, Eip3009Token.isValidSignature(digest, signature),
                    BigInteger.ZERO, "latest"));
        } catch (RpcException e) {
            if (e.isTransient()) {
                throw e;
            }
            return false; // the wallet reverted: it does not vouch for the signature
        }
    }

    @Override
    public Reservation reserve(Verification.Valid payment) {
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
        payments.release(reservation.key(), reservation.reservationId());
    }

    @Override
    public Optional<PaymentRecord> lookup(PaymentKey key) {
        return payments.find(key).map(Row::record);
    }

    @Override
    public Settlement settle(Reservation.Reserved reservation, String model) {
        PaymentKey key = reservation.key();
        ExactAuthorization a = reservation.payment().payload().authorization();
        TransactionRequest request = TransactionRequest.call(token, Eip3009Token.transferWithAuthorization(a.from(),
                a.to(), a.value(), a.validAfter(), a.validBefore(), a.nonce(),
                Hex.decode(reservation.payment().payload().signature())));
        settling.add(key);
        try {
            TransactionSender.Signed sent;
            try {
                sent = signAndSend(reservation, model, request);
            } catch (NotSent notSent) {
                return notSent.failure;
            }
            return conclude(key, a, sender.awaitReceipt(request, sent), sent.txHash());
        } catch (RpcException | org.springframework.dao.DataAccessException e) {
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

        NotSent(Settlement.Failed failure) {
            super(failure.detail(), null, false, false);
            this.failure = failure;
        }
    }

    /** Signs at the wallet's next nonce, writes the transaction down, hands it to the node; under the wallet's lock. */
    private TransactionSender.Signed signAndSend(Reservation.Reserved reservation, String model,
                                                 TransactionRequest request) throws NotSent {
        PaymentKey key = reservation.key();
        ExactAuthorization a = reservation.payment().payload().authorization();
        new JdbcTemplate(dataSource).update("INSERT INTO x402_wallet_nonce (wallet, next_nonce) VALUES (?, 0)"
                + " ON CONFLICT (wallet) DO NOTHING", payTo);
        walletLock.lock();
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                long next;
                try (PreparedStatement lock = connection.prepareStatement(
                        "SELECT next_nonce FROM x402_wallet_nonce WHERE wallet = ? FOR UPDATE")) {
                    lock.setString(1, payTo);
                    try (ResultSet rs = lock.executeQuery()) {
                        rs.next();
                        next = rs.getLong(1);
                    }
                }
                BigInteger nonce = sender.pendingNonce().max(BigInteger.valueOf(next));
                TransactionSender.Signed signed;
                try {
                    signed = sender.signAt(request, nonce);
                } catch (TransactionSender.NotSigned e) {
                    connection.rollback();
                    if (e.outcome() instanceof SendResult.TransientFailure) {
                        payments.release(key, reservation.reservationId());
                        throw new NotSent(new Settlement.Failed(X402Reason.UNEXPECTED_SETTLE_ERROR, null,
                                "the chain could not be reached; nothing was sent"));
                    }
                    X402Reason reason = diagnose(a, null);
                    payments.markFailed(key, reservation.reservationId(), reason, model, clock.instant());
                    throw new NotSent(new Settlement.Failed(reason, null, "the transfer would revert"));
                }
                if (!payments.markSending(key, reservation.reservationId(), model, signed.txHash(),
                        nonce.longValueExact(), signed.rawTransaction(), clock.instant())) {
                    connection.rollback();
                    throw new NotSent(new Settlement.Failed(X402Reason.INVALID_TRANSACTION_STATE, null,
                            "the reservation is no longer held"));
                }
                TransactionSender.Submission submission = sender.submit(signed);
                if (submission == TransactionSender.Submission.REFUSED) {
                    connection.rollback(); // the nonce stays unused: the next settlement takes it
                    X402Reason reason = diagnose(a, null);
                    payments.markFailed(key, reservation.reservationId(), reason, model, clock.instant());
                    throw new NotSent(new Settlement.Failed(reason, null, "the node refused the transfer"));
                }
                try (PreparedStatement advance = connection.prepareStatement(
                        "UPDATE x402_wallet_nonce SET next_nonce = ? WHERE wallet = ?")) {
                    advance.setLong(1, nonce.longValueExact() + 1);
                    advance.setString(2, payTo);
                    advance.executeUpdate();
                }
                connection.commit();
                return signed;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new org.springframework.dao.DataAccessResourceFailureException("x402 wallet nonce", e);
        } finally {
            walletLock.unlock();
        }
    }

    /** The end of a sent settlement, from its receipt; {@code Pending} while there is none. */
    private Settlement conclude(PaymentKey key, ExactAuthorization a, SendResult result, String txHash) {
        return switch (result) {
            case SendResult.Mined mined -> concludeMined(key, a, txHash);
            case SendResult.Reverted reverted -> {
                X402Reason reason = diagnose(a, reverted.revertReason());
                payments.markFailed(key, null, reason, null, clock.instant());
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
            X402Reason reason = diagnose(a, null);
            payments.markFailed(key, null, reason, null, clock.instant());
            return new Settlement.Failed(reason, txHash, "the transfer reverted");
        }
        boolean transferred = Eip3009Token.transfers(receipt, token).stream().anyMatch(t -> t.from().equals(a.from())
                && t.to().equals(payTo) && t.value().equals(a.value()));
        if (!transferred) {
            log.error("x402: transaction {} of payment {} was mined without the transfer authorized", txHash, key);
            payments.markFailed(key, null, X402Reason.UNEXPECTED_SETTLE_ERROR, null, clock.instant());
            return new Settlement.Failed(X402Reason.UNEXPECTED_SETTLE_ERROR, txHash, "the receipt shows no such transfer");
        }
        if (payments.markSettled(key, block, clock.instant())) {
            payments.find(key).ifPresent(row -> settled.settled(row.record(), block));
        }
        return new Settlement.Settled(txHash, a.from(), a.value(), block);
    }

    /** Why a transfer would revert or did: the nonce used, the balance short, the window over; else unknown. */
    private X402Reason diagnose(ExactAuthorization a, String revertReason) {
        try {
            if (authorizationUsed(a.from(), a.nonce())) {
                return X402Reason.INVALID_TRANSACTION_STATE;
            }
            if (balanceOf(a.from()).compareTo(a.value()) < 0) {
                return X402Reason.INSUFFICIENT_FUNDS;
            }
        } catch (RpcException e) {
            log.info("x402: why the transfer of {} failed could not be read: {}", a.from(), e.getMessage());
        }
        if (a.validBefore().compareTo(BigInteger.valueOf(clock.instant().getEpochSecond())) <= 0) {
            return X402Reason.INVALID_VALID_BEFORE;
        }
        if (revertReason != null && revertReason.contains("invalid signature")) {
            return X402Reason.INVALID_SIGNATURE;
        }
        return X402Reason.UNEXPECTED_SETTLE_ERROR;
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
        X402Reason reason = diagnose(a, null);
        if (reason == X402Reason.UNEXPECTED_SETTLE_ERROR) {
            return false; // the node refuses it for a reason that may pass; try again later
        }
        log.warn("x402: transaction {} of payment {} cannot be sent again ({}); the payment failed", txHash, key, reason);
        return payments.markFailed(key, null, reason, null, clock.instant());
    }

    private boolean authorizationUsed(String authorizer, String nonce) {
        return Eip3009Token.word(eth.call(null, token, Eip3009Token.authorizationState(authorizer, nonce),
                BigInteger.ZERO, "latest")).signum() != 0;
    }

    private BigInteger balanceOf(String account) {
        return Eip3009Token.word(eth.call(null, token, Eip3009Token.balanceOf(account), BigInteger.ZERO, "latest"));
    }

    private static Verification.Invalid invalid(X402Reason reason, String payer, String detail) {
        return new Verification.Invalid(reason, payer, detail);
    }

    private static boolean sameAddress(String a, String b) {
        return a != null && b != null && a.equalsIgnoreCase(b);
    }
}
