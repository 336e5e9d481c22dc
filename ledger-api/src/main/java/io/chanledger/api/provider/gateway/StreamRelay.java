package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

/**
 * A paid streamed completion: the upstream's events are passed on one by one as
 * {@code data: {json}}, then {@code data: [DONE]}, then the cost as SSE comment lines
 * ({@code : X-CHAN-Cost: n}, {@code : X-CHAN-Total: n}, {@code : X-CHAN-Remaining: n}).
 *
 * <p>Holds: a stream is sent before it is settled, so it never sends what its hold in the ledger
 * does not cover. It starts with the hold of its admission; before a chunk would take its cost
 * past it, it asks the Channel aggregate to raise the hold (to twice the output it held, so a long
 * answer asks a few times only), and the aggregate grants what the voucher leaves beside the
 * charged total and the other requests' holds. A chunk the hold cannot cover is not sent: the
 * stream stops there with {@code : X-CHAN-Error: insufficient_funds_post}.
 *
 * <p>Billing: a stream is charged for what it delivered, never for usage the client did not see:
 * its input and the text written out to the client, both counted by the model's tokenizer. The
 * upstream's reported usage is not billed (it may count what was never sent, or anything at all);
 * when the client asked for usage ({@code stream_options.include_usage}) the gateway sends, as the
 * last chunk before {@code [DONE]}, the upstream's usage chunk with its figures replaced by the
 * billed counts (one of its own when the upstream sent none), and passes no other usage-only
 * chunk on. A stream the client left, or that the upstream broke off, costs the input and the
 * output written out before it ended, and the upstream request is cancelled at once. A stream
 * whose upstream fails before any content costs nothing. One that passes its upstream's
 * deadlines (first byte, idle, whole stream) is ended the same way, with an
 * {@code upstream_timeout} event.
 */
@Component
class StreamRelay {

    private static final Logger log = LoggerFactory.getLogger(StreamRelay.class);

    private final GatewayMetrics metrics;
    private final ObjectMapper json;

    StreamRelay(GatewayMetrics metrics, ObjectMapper json) {
        this.metrics = metrics;
        this.json = json;
    }

    /**
     * Relays {@code stream}, opened for a request admitted as {@code admission}, and charges what
     * it delivered; {@link PaidCall} releases the admission whatever ends it.
     */
    void relay(Upstream.Stream stream, ChatRequest chat, PriceList.ModelRate rate, Payment.Admission admission,
               HttpServletResponse response) throws IOException {
        response.setStatus(200);
        response.setContentType(MediaType.TEXT_EVENT_STREAM_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.setHeader("Cache-Control", "no-cache");
        response.setHeader("X-Accel-Buffering", "no");
        admission.streamHeaders().forEach(response::setHeader);
        Outcome outcome = null;
        BigInteger cost = null;
        try {
            outcome = pump(stream, chat, rate, admission, response.getOutputStream());
            cost = outcome.cost(chat, rate);
        } finally {
            if (cost == null) {
                // ended by what pump does not report (no response to write to, a bug): the caller releases it
                stream.close();
            }
        }
        Payment.Charge settlement;
        try {
            settlement = admission.charge(cost, null);
        } catch (GatewayProblem unavailable) {
            metrics.request("settlement_unavailable");
            outcome.sink.write(": X-CHAN-Error: settlement_unavailable\n\n");
            return;
        }
        metrics.charged(settlement.charged());
        metrics.request(outcome.clientGone ? "client_gone" : outcome.cut || settlement.shortfall()
                ? "insufficient_funds_post" : outcome.timedOut ? "upstream_timeout" : outcome.failed ? "upstream_error"
                : "paid");
        if (outcome.timedOut && outcome.sink.ok) {
            outcome.sink.write("data: {\"error\":{\"message\":\"the upstream passed its deadline and the "
                    + "stream was ended; what was delivered was charged\",\"type\":\"upstream_error\","
                    + "\"code\":\"upstream_timeout\"}}\n\n");
        } else if (outcome.failed && outcome.sink.ok) {
            outcome.sink.write("data: {\"error\":{\"message\":\"the upstream broke off the stream; what was delivered "
                    + "was charged\",\"type\":\"upstream_error\",\"code\":\"upstream_error\"}}\n\n");
        }
        if (chat.clientWantsUsage() && !(outcome.failed && outcome.deliveredTokens == 0)) {
            outcome.sink.write("data: " + usageChunk(outcome, chat) + "\n\n");
        }
        outcome.sink.write("data: [DONE]\n\n");
        StringBuilder trailer = new StringBuilder();
        if (outcome.cut || settlement.shortfall()) {
            trailer.append(": X-CHAN-Error: insufficient_funds_post\n");
        }
        settlement.trailer().forEach((name, value) -> trailer.append(": ").append(name).append(": ").append(value)
                .append('\n'));
        trailer.append('\n');
        outcome.sink.write(trailer.toString());
    }

    private Outcome pump(Upstream.Stream stream, ChatRequest chat, PriceList.ModelRate rate,
                         Payment.Admission admission, OutputStream out) {
        Outcome outcome = new Outcome(new Sink(out));
        RunningHold hold = new RunningHold(chat, rate, admission);
        try (stream) {
            while (true) {
                Upstream.Chunk chunk;
                try {
                    chunk = stream.next();
                } catch (RuntimeException failure) {
                    log.warn("upstream stream of model {} broke off: {}", rate.id(), failure.getMessage());
                    outcome.failed = true;
                    outcome.timedOut = ChatCompletionsController.timedOut(failure);
                    return outcome;
                }
                if (chunk == null) {
                    outcome.completed = true;
                    return outcome;
                }
                if (chunk.usageOnly()) {
                    // its figures are the upstream's claim, not what was delivered: sent at the end, billed counts
                    outcome.usageTemplate = chunk.data();
                    continue;
                }
                outcome.lastData = chunk.data();
                long tokens = chat.tokenizer().count(chunk.text());
                if (tokens > 0 && !hold.covers(outcome.deliveredTokens + tokens)) {
                    outcome.cut = true;
                    return outcome;
                }
                if (!outcome.sink.write("data: " + chunk.data() + "\n\n")) {
                    outcome.clientGone = true;
                    return outcome;
                }
                outcome.deliveredTokens += tokens;
                outcome.deliveredText.append(chunk.text());
            }
        }
    }

    /**
     * The usage chunk the client asked for, with the counts it was billed on: the upstream's own
     * usage chunk with its figures replaced, or, when it sent none, one made from the stream's
     * last chunk (its id, model and creation time).
     */
    private String usageChunk(Outcome outcome, ChatRequest chat) {
        ObjectNode chunk = null;
        for (String source : new String[] {outcome.usageTemplate, outcome.lastData}) {
            if (source == null) {
                continue;
            }
            try {
                if (json.readTree(source) instanceof ObjectNode parsed) {
                    chunk = parsed;
                    break;
                }
            } catch (IOException unreadable) {
                // the upstream's chunk is not JSON: make one from nothing
            }
        }
        ObjectNode usageChunk = json.createObjectNode();
        for (String field : new String[] {"id", "object", "created", "model", "system_fingerprint"}) {
            if (chunk != null && chunk.hasNonNull(field)) {
                usageChunk.set(field, chunk.get(field));
            }
        }
        if (!usageChunk.has("object")) {
            usageChunk.put("object", "chat.completion.chunk");
        }
        if (!usageChunk.has("model")) {
            usageChunk.put("model", chat.model());
        }
        usageChunk.putArray("choices");
        ChatCompletionsController.putUsage(usageChunk, new Upstream.Usage(chat.inputTokens(),
                outcome.outputTokens(chat)));
        return usageChunk.toString();
    }

    /** What a running stream holds in the ledger, raised as its answer grows. */
    private final class RunningHold {
        private final ChatRequest chat;
        private final PriceList.ModelRate rate;
        private final Payment.Admission admission;
        private BigInteger held;
        private long heldOutput;
        private boolean exhausted;

        RunningHold(ChatRequest chat, PriceList.ModelRate rate, Payment.Admission admission) {
            this.chat = chat;
            this.rate = rate;
            this.admission = admission;
            this.held = admission.hold();
            this.heldOutput = Math.min(PriceList.HELD_OUTPUT_TOKENS, chat.outputLimit().orElse(Long.MAX_VALUE));
        }

        /** Whether the hold covers the input and {@code outputTokens}, after raising it if it did not. */
        boolean covers(long outputTokens) {
            BigInteger needed = rate.cost(chat.inputTokens(), outputTokens);
            if (needed.compareTo(held) <= 0) {
                return true;
            }
            if (exhausted) {
                return false;
            }
            long output = Math.max(outputTokens, Math.min(2 * heldOutput,
                    chat.outputLimit().orElse(Long.MAX_VALUE)));
            BigInteger wanted = rate.cost(chat.inputTokens(), output);
            BigInteger granted = admission.raiseHold(held, wanted);
            held = held.max(granted);
            heldOutput = output;
            // less than asked: the voucher has no more room, asking again would only cost a command
            exhausted = granted.compareTo(wanted) < 0;
            return needed.compareTo(held) <= 0;
        }
    }

    private static final class Outcome {
        final Sink sink;
        final StringBuilder deliveredText = new StringBuilder();
        long deliveredTokens;
        /** The upstream's usage-only chunk, if it sent one; the last other chunk forwarded. */
        String usageTemplate;
        String lastData;
        boolean completed;
        boolean clientGone;
        boolean failed;
        boolean timedOut;
        boolean cut;

        Outcome(Sink sink) {
            this.sink = sink;
        }

        BigInteger cost(ChatRequest chat, PriceList.ModelRate rate) {
            if (failed && deliveredTokens == 0) {
                return BigInteger.ZERO;
            }
            return rate.cost(chat.inputTokens(), outputTokens(chat));
        }

        /** Counted over the whole delivered text: a tokenizer counts a text in one piece as the model does. */
        long outputTokens(ChatRequest chat) {
            return chat.tokenizer().count(deliveredText.toString());
        }
    }

    /** Writes and flushes; after the first failed write (the client is gone) it writes nothing more. */
    private static final class Sink {
        private final OutputStream out;
        private boolean ok = true;

        Sink(OutputStream out) {
            this.out = out;
        }

        boolean write(String text) {
            if (!ok) {
                return false;
            }
            try {
                out.write(text.getBytes(StandardCharsets.UTF_8));
                out.flush();
            } catch (IOException clientGone) {
                ok = false;
            }
            return ok;
        }
    }
}
