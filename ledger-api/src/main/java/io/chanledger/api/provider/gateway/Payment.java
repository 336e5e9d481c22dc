package io.chanledger.api.provider.gateway;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.math.BigInteger;
import java.util.Map;

/**
 * One request's payment, in the way the agent chose to pay ({@link VoucherPayment}: a channel
 * voucher). {@link PaidCall} runs every paid request through it the same way: admit, call the
 * upstream, charge what was delivered or nothing, release in any case; a way of paying says only
 * how each of those steps is done with its money.
 */
interface Payment {

    /**
     * Admits the request for {@code model}, holding {@code hold} for it; null when this payment
     * already paid for an answer that is kept, which has then been written to {@code response}
     * again at no charge. A payment that cannot pay for the request is refused with the
     * exception its way of paying renders (a 402 naming the reason).
     */
    Admission admit(BigInteger hold, String model, HttpServletResponse response) throws IOException;

    /** An admitted request's money, from its admission until it is charged or released. */
    interface Admission {

        /** What the request may be charged so far. */
        BigInteger hold();

        /**
         * Raises what the request may be charged toward {@code wanted}; answers what it may be
         * charged after, at least {@code current}. A way of paying whose amount is fixed when it is
         * admitted answers {@code current}.
         */
        BigInteger raiseHold(BigInteger current, BigInteger wanted);

        /** Headers a streamed answer starts with. */
        Map<String, String> streamHeaders();

        /**
         * Charges {@code cost} (at most what the payment covers) for an answer that is ready and
         * not yet delivered. {@code body}, when not null, is kept for this payment in the same
         * commit as the charge, so that the same payment sent again gets it back uncharged.
         */
        Charge charge(BigInteger cost, byte[] body);

        /** Ends the request with no charge: the upstream failed or answered no answer. */
        void chargeNothing();

        /**
         * Ends a request that was neither charged nor charged nothing (a failure no step caught)
         * with no charge; does nothing once it has ended. Never throws.
         */
        void release();
    }

    /**
     * What a request was charged: {@code shortfall} when the payment covered less than its cost;
     * the {@code headers} of its answer and, for a streamed answer, the {@code trailer} lines
     * (name and value) that follow its last event.
     */
    record Charge(BigInteger charged, boolean shortfall, Map<String, String> headers, Map<String, String> trailer) {
    }
}
