package io.chanledger.api.gateway;

import io.chanledger.domain.channel.RequestSettlement;
import io.chanledger.domain.channel.VoucherReceipt;
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
 * <p>Billing: a stream that ran to its end costs the upstream's reported usage when there is one
 * (the client asked for it with {@code stream_options.include_usage}), else the input and the
 * output counted by the model's tokenizer. A stream the client left, or that the upstream broke
 * off, costs the input and the output written out before it ended, and the upstream request is
 * cancelled at once. A stream whose upstream fails before any content costs nothing. One that
 * passes its upstream's deadlines (first byte, idle, whole stream) is ended the same way, with an
 * {@code upstream_timeout} event.
 */
@Component
@ConditionalOnGateway
class StreamRelay {

    private static final Logger log = LoggerFactory.getLogger(StreamRelay.class);

    private final Metering metering;
    private final GatewayMetrics metrics;

    StreamRelay(Metering metering, GatewayMetrics metrics) {
        this.metering = metering;
        this.metrics = metrics;
    }

    void relay(Upstream upstream, ChatRequest chat, PriceList.ModelRate rate, VoucherReceipt receipt, HttpServletResponse response)
            throws IOException {
        Upstream.Stream stream;
        try {
            stream = upstream.stream(chat);
        } catch (RuntimeException failure) {
            metering.settle(receipt, BigInteger.ZERO);
            metrics.request(ChatCompletionsController.failureOutcome(failure));
            throw ChatCompletionsController.upstreamFailed(failure);
        }
        response.setStatus(200);
        response.setContentType(MediaType.TEXT_EVENT_STREAM_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.setHeader("Cache-Control", "no-cache");
        response.setHeader("X-Accel-Buffering", "no");
        response.setHeader("X-CHAN-Channel", receipt.channelId());
        Outcome outcome = null;
        BigInteger cost = null;
        try {
            outcome = pump(stream, chat, rate, receipt, response.getOutputStream());
            cost = outcome.cost(chat, rate);
        } finally {
            if (cost == null) {
                // ended by what pump does not report (no response to write to, a bug): no hold outlives it
                stream.close();
                metering.release(receipt);
            }
        }
        RequestSettlement settlement;
        try {
            settlement = metering.settle(receipt, cost);
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
        outcome.sink.write("data: [DONE]\n\n");
        StringBuilder trailer = new StringBuilder();
        if (outcome.cut || settlement.shortfall()) {
            trailer.append(": X-CHAN-Error: insufficient_funds_post\n");
        }
        trailer.append(": X-CHAN-Cost: ").append(settlement.charged()).append('\n')
                .append(": X-CHAN-Total: ").append(settlement.chargedTotal()).append('\n')
                .append(": X-CHAN-Remaining: ").append(settlement.remaining()).append("\n\n");
        outcome.sink.write(trailer.toString());
    }

    private Outcome pump(Upstream.Stream stream, ChatRequest chat, PriceList.ModelRate rate, VoucherReceipt receipt,
                         OutputStream out) {
        Outcome outcome = new Outcome(new Sink(out));
        RunningHold hold = new RunningHold(chat, rate, receipt);
        try (stream) {
            while (true) {
                Upstream.Chunk chunk;
                try {
                    chunk = stream.next();
                } catch (RuntimeException failure) {
                    log.warn("upstream stream for channel {} broke off: {}", receipt.channelId(), failure.getMessage());
                    outcome.failed = true;
                    outcome.timedOut = ChatCompletionsController.timedOut(failure);
                    return outcome;
                }
                if (chunk == null) {
                    outcome.completed = true;
                    return outcome;
                }
                if (chunk.usage() != null) {
                    outcome.usage = chunk.usage();
                }
                if (chunk.usageOnly() && !chat.clientWantsUsage()) {
                    continue;
                }
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

    /** What a running stream holds in the ledger, raised as its answer grows. */
    private final class RunningHold {
        private final ChatRequest chat;
        private final PriceList.ModelRate rate;
        private final VoucherReceipt receipt;
        private BigInteger held;
        private long heldOutput;
        private boolean exhausted;

        RunningHold(ChatRequest chat, PriceList.ModelRate rate, VoucherReceipt receipt) {
            this.chat = chat;
            this.rate = rate;
            this.receipt = receipt;
            this.held = receipt.hold();
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
            BigInteger granted = metering.raiseHold(receipt, held, wanted);
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
        Upstream.Usage usage;
        boolean completed;
        boolean clientGone;
        boolean failed;
        boolean timedOut;
        boolean cut;

        Outcome(Sink sink) {
            this.sink = sink;
        }

        BigInteger cost(ChatRequest chat, PriceList.ModelRate rate) {
            if (completed && usage != null) {
                return rate.cost(usage.promptTokens(), usage.completionTokens());
            }
            if (failed && deliveredTokens == 0) {
                return BigInteger.ZERO;
            }
            // counted over the whole delivered text: a tokenizer counts a text in one piece as the model does
            return rate.cost(chat.inputTokens(), chat.tokenizer().count(deliveredText.toString()));
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
