package io.chanledger.api.provider.gateway;

import io.chanledger.domain.channel.RequestSettlement;
import io.chanledger.domain.channel.SignedVoucher;
import io.chanledger.domain.channel.VoucherReceipt;
import io.chanledger.domain.channel.VoucherRejectedException;
import io.chanledger.domain.channel.VoucherRejection;
import io.chanledger.domain.money.Uint256;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/**
 * Paying with a channel voucher ({@code X-CHAN-Voucher}): admitted by the ledger holding the
 * request's hold, settled at its cost by the Channel aggregate, which charges at most what the
 * voucher leaves beside the channel's charged total and its other requests' holds.
 */
final class VoucherPayment implements Payment {

    private final SignedVoucher voucher;
    private final Metering metering;
    private final PaidAnswers answers;
    private final GatewayMetrics metrics;

    VoucherPayment(SignedVoucher voucher, Metering metering, PaidAnswers answers, GatewayMetrics metrics) {
        this.voucher = voucher;
        this.metering = metering;
        this.answers = answers;
        this.metrics = metrics;
    }

    /**
     * A voucher refused because it paid for an earlier request whose answer is kept gets that
     * answer again; one whose request is still running here is told to come back for its answer.
     */
    @Override
    public Admission admit(BigInteger hold, String model, HttpServletResponse response) throws IOException {
        try {
            return new Admitted(metering.admit(voucher, hold, model));
        } catch (VoucherRejectedException rejection) {
            if (rejection.reason() == VoucherRejection.INVALID_VOUCHER_FORMAT) {
                throw rejection;
            }
            var kept = answers.find(voucher);
            if (kept.isPresent()) {
                metrics.request("replayed");
                PaidCall.write(kept.get().headers(), kept.get().body(), true, response);
                return null;
            }
            if (rejection.reason() == VoucherRejection.NONCE_NOT_INCREASING
                    && metering.running(voucher.channelId(), voucher.nonce())) {
                metrics.request("request_running");
                throw new GatewayProblem(HttpStatus.CONFLICT, "request_running", "the request voucher "
                        + voucher.nonce() + " paid for is still running; send the same voucher again once it has "
                        + "answered to get its answer, at no further charge", Map.of(HttpHeaders.RETRY_AFTER, "5"));
            }
            throw rejection;
        }
    }

    private final class Admitted implements Admission {

        private final VoucherReceipt receipt;
        private boolean ended;

        Admitted(VoucherReceipt receipt) {
            this.receipt = receipt;
        }

        @Override
        public BigInteger hold() {
            return receipt.hold();
        }

        @Override
        public BigInteger raiseHold(BigInteger current, BigInteger wanted) {
            return metering.raiseHold(receipt, current, wanted);
        }

        @Override
        public Map<String, String> streamHeaders() {
            return Map.of("X-CHAN-Channel", receipt.channelId());
        }

        /**
         * When the voucher covered less than the cost, the answer is still delivered and only
         * what the voucher covered is charged ({@code X-CHAN-Required}: the cost,
         * {@code X-CHAN-Provided}: what was charged).
         */
        @Override
        public Charge charge(BigInteger cost, byte[] body) {
            ended = true;
            RequestSettlement settlement = metering.settle(receipt, cost, body == null ? null : settled -> {
                if (settled.settled()) {
                    answers.keep(voucher, new PaidAnswers.Answer(answerHeaders(settled, cost), body));
                }
            });
            Map<String, String> trailer = LinkedHashMap.newLinkedHashMap(3);
            trailer.put("X-CHAN-Cost", Uint256.decimal(settlement.charged()));
            trailer.put("X-CHAN-Total", Uint256.decimal(settlement.chargedTotal()));
            trailer.put("X-CHAN-Remaining", Uint256.decimal(settlement.remaining()));
            return new Charge(settlement.charged(), settlement.shortfall(), answerHeaders(settlement, cost), trailer);
        }

        @Override
        public void chargeNothing() {
            ended = true;
            metering.settle(receipt, BigInteger.ZERO);
        }

        @Override
        public void release() {
            if (!ended) {
                ended = true;
                metering.release(receipt);
            }
        }
    }

    /** The X-CHAN-* headers of a paid answer, in the order they are written and kept. */
    private static Map<String, String> answerHeaders(RequestSettlement settlement, BigInteger cost) {
        Map<String, String> headers = LinkedHashMap.newLinkedHashMap(6);
        headers.put("X-CHAN-Cost", Uint256.decimal(settlement.charged()));
        headers.put("X-CHAN-Total", Uint256.decimal(settlement.chargedTotal()));
        headers.put("X-CHAN-Remaining", Uint256.decimal(settlement.remaining()));
        headers.put("X-CHAN-Channel", settlement.channelId());
        if (settlement.shortfall()) {
            // the same meanings as on insufficient_funds: what this request needed, what the voucher left for it
            headers.put(GatewayExceptionHandler.REQUIRED_HEADER, Uint256.decimal(cost));
            headers.put(GatewayExceptionHandler.PROVIDED_HEADER, Uint256.decimal(settlement.charged()));
        }
        return headers;
    }
}
