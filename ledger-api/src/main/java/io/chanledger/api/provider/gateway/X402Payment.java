package io.chanledger.api.provider.gateway;

import io.chanledger.api.provider.x402.PaymentPayload;
import io.chanledger.api.provider.x402.PaymentRequirements;
import io.chanledger.api.provider.x402.SettlementResponse;
import io.chanledger.api.provider.x402.X402Codec;
import io.chanledger.api.provider.x402.X402Network;
import io.chanledger.api.provider.x402.X402Reason;
import io.chanledger.api.provider.x402.X402Settlement;
import io.chanledger.api.provider.x402.X402Settlement.PaymentRecord;
import io.chanledger.api.provider.x402.X402Settlement.Reservation;
import io.chanledger.api.provider.x402.X402Settlement.Settlement;
import io.chanledger.api.provider.x402.X402Settlement.Verification;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.math.BigInteger;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/**
 * Paying with an x402 {@code exact} payment ({@code PAYMENT-SIGNATURE}, v2; {@code X-PAYMENT},
 * v1), settled by the provider's own facilitator ({@link X402Settlement}). Admitted once the
 * payment is verified against the request's offer and reserved (one request per payer and nonce,
 * on every instance); charged, once the answer is ready and before it is delivered, by settling
 * it on chain; released unused when the upstream failed. The answer is kept under the payment
 * before its transaction is sent, so the same payment sent again, also after a crash, gets it once
 * the payment is settled, and never a second settlement.
 */
final class X402Payment implements Payment {

    private final PaymentPayload payload;
    private final PaymentRequirements requirements;
    private final X402Offers offers;
    private final PaidAnswers answers;
    private final GatewayMetrics metrics;
    private final String url;
    private final String description;

    X402Payment(PaymentPayload payload, PaymentRequirements requirements, X402Offers offers, PaidAnswers answers,
                GatewayMetrics metrics, String url, String description) {
        this.payload = payload;
        this.requirements = requirements;
        this.offers = offers;
        this.answers = answers;
        this.metrics = metrics;
        this.url = url;
        this.description = description;
    }

    /**
     * Verified, then reserved. A payment this provider settled already (the very same one: its
     * verification checks the signature and amount) is answered the answer it paid for; one a
     * request still holds, or whose transaction is on its way, is told to come back; one whose
     * settlement failed is refused with its reason.
     */
    @Override
    public Admission admit(BigInteger hold, String model, HttpServletResponse response) throws IOException {
        X402Settlement settlement = offers.settlement();
        Verification verification = settlement.verify(payload, requirements);
        if (verification instanceof Verification.Invalid invalid) {
            throw refused(invalid.reason(), invalid.detail(), null);
        }
        Reservation reservation = settlement.reserve((Verification.Valid) verification);
        return switch (reservation) {
            case Reservation.Reserved reserved -> new Admitted(reserved, model);
            case Reservation.AlreadySettled settled -> {
                replay(settled.record(), response);
                yield null;
            }
            case Reservation.InProgress inProgress -> throw running(inProgress.record());
            case Reservation.Refused refusal -> throw refused(refusal.reason(), refusal.detail(), null);
        };
    }

    private final class Admitted implements Admission {

        private final Reservation.Reserved reservation;
        private final String model;
        private boolean ended;

        Admitted(Reservation.Reserved reservation, String model) {
            this.reservation = reservation;
            this.model = model;
        }

        @Override
        public BigInteger hold() {
            return requirements.amount();
        }

        /** An authorization moves exactly its value: what it holds cannot grow. */
        @Override
        public BigInteger raiseHold(BigInteger current, BigInteger wanted) {
            return current;
        }

        @Override
        public Map<String, String> streamHeaders() {
            return Map.of();
        }

        /**
         * Keeps the answer under the payment, then settles it: settled, the answer goes out with the
         * settlement response; failed, the answer is withheld and dropped and the 402 names the
         * spec's reason; sent without a receipt in time, a 402 {@code settlement_pending} with the
         * transaction, and the answer stays kept for the same payment sent again once it is mined.
         */
        @Override
        public Charge charge(BigInteger cost, byte[] body) {
            ended = true;
            BigInteger nonce = nonce();
            answers.keepNow(payload.payer(), nonce, requirements.amount(), payload.signature(),
                    new PaidAnswers.Answer(Map.of(), body));
            Settlement settled = offers.settlement().settle(reservation, model);
            return switch (settled) {
                case Settlement.Settled done -> new Charge(done.amount(), false, Map.of(responseHeader(),
                        offers.codec().encodeSettlementResponse(SettlementResponse.settled(done.payer(),
                                done.transaction(), network(), done.amount()))), Map.of());
                case Settlement.Failed failed -> {
                    answers.forget(payload.payer(), nonce);
                    metrics.request("x402_settlement_failed");
                    throw refused(failed.reason(), failed.detail(), SettlementResponse.failed(failed.reason(),
                            payload.payer(), failed.transaction(), network()));
                }
                case Settlement.Pending pending -> {
                    metrics.request("x402_settlement_pending");
                    throw new GatewayProblem(HttpStatus.PAYMENT_REQUIRED, X402Reason.SETTLEMENT_PENDING.code(),
                            "the payment's transaction " + pending.transaction() + " was sent and is not mined yet; "
                                    + "send the same payment again shortly to get the answer it paid for (it is "
                                    + "settled once, whatever is sent again)",
                            Map.of(responseHeader(), offers.codec().encodeSettlementResponse(new SettlementResponse(
                                    false, X402Reason.SETTLEMENT_PENDING, payload.payer(), pending.transaction(),
                                    network(), null)), HttpHeaders.RETRY_AFTER, "5"));
                }
            };
        }

        @Override
        public void chargeNothing() {
            ended = true;
            offers.settlement().release(reservation);
        }

        @Override
        public void release() {
            if (!ended) {
                ended = true;
                offers.settlement().release(reservation);
            }
        }
    }

    /** The kept answer of a settled payment, with its settlement response; free. */
    private void replay(PaymentRecord record, HttpServletResponse response) throws IOException {
        var kept = answers.find(payload.payer(), nonce(), payload.authorization().value(), payload.signature());
        if (kept.isEmpty()) {
            throw refused(X402Reason.INVALID_TRANSACTION_STATE, "this payment was settled for an earlier request "
                    + "whose answer is no longer kept", null);
        }
        metrics.request("replayed");
        Map<String, String> headers = Map.of(responseHeader(), offers.codec().encodeSettlementResponse(
                SettlementResponse.settled(record.key().payer(), record.transaction(), network(),
                        record.amount())));
        PaidCall.write(headers, kept.get().body(), true, response);
    }

    private GatewayProblem running(PaymentRecord record) {
        metrics.request("request_running");
        return new GatewayProblem(HttpStatus.CONFLICT, "request_running", "the request this payment paid for is "
                + "still running or its settlement is on its way" + (record.transaction() == null ? ""
                : " (transaction " + record.transaction() + ")") + "; send the same payment again shortly to get "
                + "its answer; it is settled once", Map.of(HttpHeaders.RETRY_AFTER, "5"));
    }

    private GatewayProblem refused(X402Reason reason, String detail, SettlementResponse failed) {
        metrics.request("x402_refused");
        return offers.refused(reason, detail, url, description, requirements.amount(), failed,
                payload.x402Version());
    }

    private String responseHeader() {
        return payload.x402Version() == 1 ? X402Codec.X_PAYMENT_RESPONSE : X402Codec.PAYMENT_RESPONSE;
    }

    private BigInteger nonce() {
        return new BigInteger(payload.authorization().nonce().substring(2), 16);
    }

    /** The network as the payment's wire version names it. */
    private String network() {
        return payload.x402Version() == 1 ? X402Network.V1_NAME : X402Network.V2_NAME;
    }
}
