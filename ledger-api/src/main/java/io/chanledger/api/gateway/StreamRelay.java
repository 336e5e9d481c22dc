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
 * <p>Billing: a stream that ran to its end costs the upstream's reported usage (the gateway's own
 * count when it reported none). A stream the client left, or that the upstream broke off, costs
 * the input and the output tokens written out before it ended, and the upstream request is
 * cancelled at once. A stream whose upstream fails before any content costs nothing. A chunk
 * that would take the cost past what the voucher covers is not sent: the stream stops there with
 * {@code : X-CHAN-Error: insufficient_funds_post}.
 */
@Component
@ConditionalOnGateway
class StreamRelay {

    private static final Logger log = LoggerFactory.getLogger(StreamRelay.class);

    private final Upstream upstream;
    private final Metering metering;
    private final GatewayMetrics metrics;

    StreamRelay(Upstream upstream, Metering metering, GatewayMetrics metrics) {
        this.upstream = upstream;
        this.metering = metering;
        this.metrics = metrics;
    }

    void relay(ChatRequest chat, PriceList.ModelRate rate, VoucherReceipt receipt, HttpServletResponse response)
            throws IOException {
        Upstream.Stream stream;
        try {
            stream = upstream.stream(chat);
        } catch (RuntimeException failure) {
            metering.settle(receipt, BigInteger.ZERO);
            metrics.request("upstream_error");
            throw ChatCompletionsController.upstreamFailed(failure);
        }
        response.setStatus(200);
        response.setContentType(MediaType.TEXT_EVENT_STREAM_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.setHeader("Cache-Control", "no-cache");
        response.setHeader("X-Accel-Buffering", "no");
        response.setHeader("X-CHAN-Channel", receipt.channelId());
        Outcome outcome = pump(stream, chat, rate, receipt, response.getOutputStream());
        BigInteger cost = outcome.cost(chat, rate);
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
                ? "insufficient_funds_post" : outcome.failed ? "upstream_error" : "paid");
        if (outcome.failed && outcome.sink.ok) {
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
        try (stream) {
            while (true) {
                Upstream.Chunk chunk;
                try {
                    chunk = stream.next();
                } catch (RuntimeException failure) {
                    log.warn("upstream stream for channel {} broke off: {}", receipt.channelId(), failure.getMessage());
                    outcome.failed = true;
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
                long tokens = Tokenizer.count(chunk.text());
                if (tokens > 0 && rate.cost(chat.inputTokens(), outcome.delivered + tokens)
                        .compareTo(receipt.coverage()) > 0) {
                    outcome.cut = true;
                    return outcome;
                }
                if (!outcome.sink.write("data: " + chunk.data() + "\n\n")) {
                    outcome.clientGone = true;
                    return outcome;
                }
                outcome.delivered += tokens;
            }
        }
    }

    private static final class Outcome {
        final Sink sink;
        long delivered;
        Upstream.Usage usage;
        boolean completed;
        boolean clientGone;
        boolean failed;
        boolean cut;

        Outcome(Sink sink) {
            this.sink = sink;
        }

        BigInteger cost(ChatRequest chat, PriceList.ModelRate rate) {
            if (completed && usage != null) {
                return rate.cost(usage.promptTokens(), usage.completionTokens());
            }
            if (failed && delivered == 0) {
                return BigInteger.ZERO;
            }
            return rate.cost(chat.inputTokens(), delivered);
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
