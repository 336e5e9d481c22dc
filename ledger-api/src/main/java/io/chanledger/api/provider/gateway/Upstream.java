package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Where the gateway has a paid request served: the built-in echo backend or an OpenAI-compatible API. */
interface Upstream {

    /** A whole completion; throws {@link UpstreamException} when the upstream fails. */
    Completion complete(ChatRequest request);

    /** Starts a streamed completion; throws {@link UpstreamException} when the upstream refuses it. */
    Stream stream(ChatRequest request);

    /** Token counts as the upstream reported them. */
    record Usage(long promptTokens, long completionTokens) {

        /** The {@code usage} object of an OpenAI answer, or null when it has none. */
        static Usage of(JsonNode usage) {
            if (usage == null || !usage.isObject() || !usage.path("prompt_tokens").canConvertToLong()
                    || !usage.path("completion_tokens").canConvertToLong()) {
                return null;
            }
            long prompt = usage.path("prompt_tokens").longValue();
            long completion = usage.path("completion_tokens").longValue();
            return prompt < 0 || completion < 0 ? null : new Usage(prompt, completion);
        }
    }

    /** A completion body as the upstream sent it, its usage (null if it reported none) and its text. */
    record Completion(ObjectNode body, Usage usage, String text) {
    }

    /**
     * One server-sent event of a stream: {@code data} is the JSON as received, {@code text} the
     * content it adds, {@code usage} set on the chunk that reports usage; {@code usageOnly} for a
     * chunk that carries nothing but usage (sent because the client asked for it, or by an
     * upstream that always reports usage).
     */
    record Chunk(String data, String text, Usage usage, boolean usageOnly) {
    }

    /** A running stream. {@link #close()} before the end cancels the upstream request. */
    interface Stream extends AutoCloseable {

        /** The next chunk, blocking until it arrives; null once the stream has ended. */
        Chunk next();

        @Override
        void close();
    }

    /**
     * The upstream failed; {@code message} says how without repeating what it answered.
     * {@link #timedOut()} when it was a deadline that ended the call, not the upstream itself.
     */
    final class UpstreamException extends RuntimeException {

        private final boolean timedOut;

        UpstreamException(String message, Throwable cause) {
            this(message, cause, false);
        }

        private UpstreamException(String message, Throwable cause, boolean timedOut) {
            super(message, cause, false, false);
            this.timedOut = timedOut;
        }

        /** The call ran past one of its deadlines and was aborted. */
        static UpstreamException timeout(String message) {
            return new UpstreamException(message, null, true);
        }

        boolean timedOut() {
            return timedOut;
        }
    }
}
