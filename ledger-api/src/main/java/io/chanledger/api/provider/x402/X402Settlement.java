package io.chanledger.api.provider.x402;

import java.math.BigInteger;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The provider's own x402 facilitator for scheme {@code exact}: an agent's EIP-3009 authorization
 * is verified, reserved, and either released or settled by the provider's wallet, at most once.
 *
 * <p>How the gateway sells a request for an x402 payment:
 * <ol>
 * <li>Decode the header with {@link X402Codec} (an {@link X402Refusal} is a 402 naming its reason).</li>
 * <li>{@link #verify} the payment against the offer the gateway made for this request
 *     ({@link PaymentRequirements#exact}); {@link Verification.Invalid} is a 402 with its reason.
 *     Nothing is written and nothing is sent: a stranger's garbage costs a few microseconds and
 *     (for a valid-looking signature) two {@code eth_call}s.</li>
 * <li>{@link #reserve} the verified payment: one durable record per (payer, nonce). A copy of a
 *     payment gets {@link Reservation.AlreadySettled} (answer with the answer kept under
 *     {@link PaymentKey}, charge nothing), {@link Reservation.InProgress} (another request holds it:
 *     a clear refusal, or wait and {@link #lookup} again) or {@link Reservation.Refused}.</li>
 * <li>Call the upstream. When it fails, times out or answers a non-answer: {@link #release} the
 *     reservation; the authorization stays unused on chain and may be sent again.</li>
 * <li>When the answer is ready, {@link #settle} it before delivering it. {@link Settlement.Settled}
 *     carries the transaction: keep the answer under the payment's key and deliver it with
 *     {@code PAYMENT-RESPONSE}. {@link Settlement.Failed}: withhold the answer, 402 with the reason.
 *     {@link Settlement.Pending}: sent, no receipt in time; the transaction is stored and will be
 *     settled after any restart, never signed again: answer 402 {@code settlement_pending} with the
 *     hash (or keep the answer and let the agent fetch it by sending the same payment again).</li>
 * </ol>
 * Every method is safe to call from several threads and from several instances of one provider on
 * one database; none throws for bad input (only for a programming error, such as a reservation of
 * another instance's store).
 */
public interface X402Settlement {

    /**
     * Checks {@code payload} against {@code requirements}, the offer the caller made: scheme
     * {@code exact}, network Polygon, the asset, {@code payTo} this provider's wallet, the
     * authorization's value exactly the amount; the EIP-712 signature recovers to {@code from} (or,
     * for a contract wallet, its ERC-1271 {@code isValidSignature} approves); {@code validAfter <=
     * now} and {@code now + margin < validBefore}; the nonce is unused on chain and not settled
     * here; the payer's balance covers the value.
     */
    Verification verify(PaymentPayload payload, PaymentRequirements requirements);

    /**
     * Takes the one durable reservation of {@code payment}'s (payer, nonce). A payment released
     * earlier (its upstream failed) may be reserved again.
     */
    Reservation reserve(Verification.Valid payment);

    /** Gives up a reservation with nothing settled (the upstream failed); the authorization stays unused. */
    void release(Reservation.Reserved reservation);

    /**
     * Settles a reservation with the provider's wallet: {@code transferWithAuthorization}, its
     * signed transaction written down before it is sent, the receipt's {@code Transfer(from, payTo,
     * value)} checked, and the payment recorded as sold for {@code model} (the model or service
     * name). Never sends a second transaction for one authorization, whatever is called again.
     */
    Settlement settle(Reservation.Reserved reservation, String model);

    /** What became of the payment with {@code key}, if this provider ever reserved it. */
    Optional<PaymentRecord> lookup(PaymentKey key);

    /** The outcome of {@link #verify}. */
    sealed interface Verification {

        /** The payment may be reserved; {@code payer} is its authorization's {@code from}. */
        record Valid(PaymentPayload payload, PaymentRequirements requirements, String payer) implements Verification {
            public Valid {
                Objects.requireNonNull(payload, "payload");
                Objects.requireNonNull(requirements, "requirements");
                Objects.requireNonNull(payer, "payer");
            }

            public PaymentKey key() {
                return payload.key();
            }
        }

        /** Refused; {@code payer} when known, {@code detail} for a log line or a problem's detail. */
        record Invalid(X402Reason reason, String payer, String detail) implements Verification {
            public Invalid {
                Objects.requireNonNull(reason, "reason");
            }
        }
    }

    /** The outcome of {@link #reserve}. */
    sealed interface Reservation {

        /** This caller holds the payment now; settle or release it. */
        record Reserved(PaymentKey key, String reservationId, Verification.Valid payment) implements Reservation {
        }

        /** This payment was settled already: the kept answer under {@code record.key()} is the answer. */
        record AlreadySettled(PaymentRecord record) implements Reservation {
        }

        /** Another request holds this payment (reserved or being sent); nothing may be done twice. */
        record InProgress(PaymentRecord record) implements Reservation {
        }

        /** The payment cannot be sold (its settlement failed earlier, or a store error). */
        record Refused(X402Reason reason, String detail) implements Reservation {
        }
    }

    /** The outcome of {@link #settle}. */
    sealed interface Settlement {

        /** Mined, and its receipt shows exactly the transfer authorized. */
        record Settled(String transaction, String payer, BigInteger amount, long blockNumber) implements Settlement {
        }

        /** Nothing was transferred (reverted, nonce used, balance gone, refused); {@code transaction} when one was mined. */
        record Failed(X402Reason reason, String transaction, String detail) implements Settlement {
        }

        /** Sent, no receipt in time: the outcome will be known later ({@link #lookup}). */
        record Pending(String transaction) implements Settlement {
        }
    }

    /** One payment as the store keeps it. */
    record PaymentRecord(PaymentKey key, PaymentStatus status, String payTo, BigInteger amount, String model,
                         String transaction, X402Reason failure, Instant reservedAt, Instant settledAt) {
    }

    /** Where a payment stands. */
    enum PaymentStatus {
        /** Held by a request that has not settled it yet. */
        RESERVED,
        /** Its transaction is signed and stored, perhaps sent; the receipt is awaited. */
        SENDING,
        /** Mined with the transfer; final. */
        SETTLED,
        /** Nothing transferred and nothing will be; final. */
        FAILED,
        /** Given back unused; may be reserved again. */
        RELEASED
    }
}
