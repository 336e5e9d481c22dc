package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The built-in backend: answers "Echo: " followed by the last user message, cut to the request's
 * output limit, or to {@code answerLimit} tokens when it set none (a real model's answers end
 * too), with usage counted by the request's {@link Tokenizer} (input over every message's text,
 * as the gateway counts it, output over the answer). Deterministic, so tests and benchmarks can
 * predict every cost. A whole answer comes after {@code answerDelay} (none by default), as a
 * model's would after a while. A stream sends one token per chunk, {@code streamDelay} apart, and reports
 * usage at its end only when the request asked for it ({@code stream_options.include_usage}), as
 * OpenAI's API does.
 */
final class EchoUpstream implements Upstream {

    static final String PREFIX = "Echo: ";
    /** The longest answer to a request that sets no output limit, unless an upstream's settings say otherwise. */
    static final String DEFAULT_ANSWER_TOKENS = "256";

    private final ObjectMapper json;
    private final Clock clock;
    private final Duration streamDelay;
    private final Duration answerDelay;
    private final long answerLimit;
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong streamsCancelled = new AtomicLong();
    private final AtomicLong chunksProduced = new AtomicLong();

    EchoUpstream(ObjectMapper json, Clock clock, Duration streamDelay, long answerLimit) {
        this(json, clock, streamDelay, Duration.ZERO, answerLimit);
    }

    EchoUpstream(ObjectMapper json, Clock clock, Duration streamDelay, Duration answerDelay, long answerLimit) {
        this.json = json;
        this.clock = clock;
        this.streamDelay = streamDelay;
        this.answerDelay = answerDelay;
        this.answerLimit = answerLimit;
    }

    private String answer(ChatRequest request) {
        return request.tokenizer().truncate(PREFIX + request.lastUserText(), request.outputLimit().orElse(answerLimit));
    }

    @Override
    public Completion complete(ChatRequest request) {
        if (answerDelay.isPositive()) {
            try {
                Thread.sleep(answerDelay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Upstream.UpstreamException("the echo backend was interrupted", e);
            }
        }
        String text = answer(request);
        Usage usage = new Usage(request.inputTokens(), request.tokenizer().count(text));
        ObjectNode body = json.createObjectNode()
                .put("id", "chatcmpl-echo-" + ids.incrementAndGet())
                .put("object", "chat.completion")
                .put("created", clock.instant().getEpochSecond())
                .put("model", request.model());
        ObjectNode choice = body.putArray("choices").addObject().put("index", 0);
        choice.putObject("message").put("role", "assistant").put("content", text);
        choice.put("finish_reason", finishReason(request));
        putUsage(body, usage);
        return new Completion(body, usage, text);
    }

    @Override
    public Stream stream(ChatRequest request) {
        String text = answer(request);
        return new EchoStream(request, text, "chatcmpl-echo-" + ids.incrementAndGet(),
                request.tokenizer().pieces(text));
    }

    /** Streams closed before their end: the gateway cancelled them. */
    long streamsCancelled() {
        return streamsCancelled.get();
    }

    /** Content chunks produced by all streams so far. */
    long chunksProduced() {
        return chunksProduced.get();
    }

    private String finishReason(ChatRequest request) {
        return request.tokenizer().count(PREFIX + request.lastUserText()) > request.outputLimit().orElse(answerLimit)
                ? "length" : "stop";
    }

    private static void putUsage(ObjectNode body, Usage usage) {
        body.putObject("usage")
                .put("prompt_tokens", usage.promptTokens())
                .put("completion_tokens", usage.completionTokens())
                .put("total_tokens", usage.promptTokens() + usage.completionTokens());
    }

    private final class EchoStream implements Stream {
        private final ChatRequest request;
        private final String text;
        private final String id;
        private final Iterator<String> pieces;
        private final long created = clock.instant().getEpochSecond();
        private int step;
        private boolean finishSent;
        private boolean finished;
        private boolean closed;

        EchoStream(ChatRequest request, String text, String id, List<String> pieces) {
            this.request = request;
            this.text = text;
            this.id = id;
            this.pieces = pieces.iterator();
        }

        @Override
        public Chunk next() {
            if (closed || finished) {
                return null;
            }
            if (step++ == 0) {
                ObjectNode first = chunk();
                first.withArray("choices").addObject().put("index", 0).putObject("delta")
                        .put("role", "assistant").put("content", "");
                return new Chunk(first.toString(), "", null, false);
            }
            if (pieces.hasNext()) {
                pause();
                String piece = pieces.next();
                chunksProduced.incrementAndGet();
                ObjectNode chunk = chunk();
                chunk.withArray("choices").addObject().put("index", 0).putObject("delta").put("content", piece);
                return new Chunk(chunk.toString(), piece, null, false);
            }
            if (!finishSent) {
                finishSent = true;
                ObjectNode last = chunk();
                last.withArray("choices").addObject().put("index", 0).put("finish_reason", finishReason(request))
                        .putObject("delta");
                return new Chunk(last.toString(), "", null, false);
            }
            finished = true;
            if (!request.clientWantsUsage()) {
                return null;
            }
            ObjectNode usageChunk = chunk();
            usageChunk.putArray("choices");
            Usage usage = new Usage(request.inputTokens(), request.tokenizer().count(text));
            putUsage(usageChunk, usage);
            return new Chunk(usageChunk.toString(), "", usage, true);
        }

        private ObjectNode chunk() {
            return json.createObjectNode().put("id", id).put("object", "chat.completion.chunk")
                    .put("created", created).put("model", request.model());
        }

        private void pause() {
            if (streamDelay.isZero()) {
                return;
            }
            try {
                Thread.sleep(streamDelay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UpstreamException("the echo stream was interrupted", e);
            }
        }

        @Override
        public void close() {
            if (!closed && !finished) {
                streamsCancelled.incrementAndGet();
            }
            closed = true;
        }
    }
}
