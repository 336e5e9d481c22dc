package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.math.BigInteger;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

/**
 * One paid request, whatever pays for it: the payment is admitted holding the request's hold,
 * the upstream is called, the request is charged what was delivered (a whole answer: before it is
 * written; a stream: as it ends) or nothing when the upstream failed, timed out or answered no
 * answer, and whatever ends it, its payment is released before the request returns, so that no
 * hold outlives it. The way of paying ({@link Payment}) is the parameter; the upstream never sees
 * it, and a new way of paying changes nothing here.
 */
@Component
class PaidCall {

    /** A whole answer and what it costs. */
    record Answered(BigInteger cost, ObjectNode body) {
    }

    private final StreamRelay relay;
    private final GatewayMetrics metrics;
    private final ObjectMapper json;

    PaidCall(StreamRelay relay, GatewayMetrics metrics, ObjectMapper json) {
        this.relay = relay;
        this.metrics = metrics;
        this.json = json;
    }

    /**
     * A request answered whole by {@code call}, which throws when the upstream failed or answered
     * no answer; the answer is charged, and kept with its charge, before it is written.
     */
    void answer(Payment payment, BigInteger hold, String model, Supplier<Answered> call,
                HttpServletResponse response) throws IOException {
        Payment.Admission admission = payment.admit(hold, model, response);
        if (admission == null) {
            return;
        }
        try {
            Answered answered;
            try {
                answered = call.get();
            } catch (RuntimeException failure) {
                throw failed(admission, failure);
            }
            byte[] body = json.writeValueAsBytes(answered.body());
            Payment.Charge charge = admission.charge(answered.cost(), body);
            metrics.charged(charge.charged());
            metrics.request(charge.shortfall() ? "insufficient_funds_post" : "paid");
            write(charge.headers(), body, false, response);
        } finally {
            admission.release();
        }
    }

    /** A streamed chat answer, relayed as it comes and charged for what was delivered ({@link StreamRelay}). */
    void stream(Payment payment, BigInteger hold, Upstream upstream, ChatRequest chat, PriceList.ModelRate rate,
                HttpServletResponse response) throws IOException {
        Payment.Admission admission = payment.admit(hold, rate.id(), response);
        if (admission == null) {
            return;
        }
        try {
            Upstream.Stream stream;
            try {
                stream = upstream.stream(chat);
            } catch (RuntimeException failure) {
                throw failed(admission, failure);
            }
            relay.relay(stream, chat, rate, admission, response);
        } finally {
            admission.release();
        }
    }

    /** Ends a request whose upstream failed with no charge; answers the problem to render. */
    private GatewayProblem failed(Payment.Admission admission, RuntimeException failure) {
        admission.chargeNothing();
        metrics.request(ChatCompletionsController.failureOutcome(failure));
        return ChatCompletionsController.upstreamFailed(failure);
    }

    /** Writes a paid answer (again, when {@code replay}: then marked {@code X-CHAN-Replay: true}). */
    static void write(Map<String, String> headers, byte[] body, boolean replay, HttpServletResponse response)
            throws IOException {
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        headers.forEach(response::setHeader);
        if (replay) {
            response.setHeader("X-CHAN-Replay", "true");
        }
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
