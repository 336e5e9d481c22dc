package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.OptionalLong;

/**
 * A chat completion request as the gateway meters it: the bytes the client sent (which go
 * upstream exactly so), the model, whether it streams and asked for usage in the stream, the
 * output limit the client set ({@code max_completion_tokens}, else {@code max_tokens}; none when
 * it set neither, and the gateway adds none), the model's tokenizer, the input tokens counted over
 * the text of every message (non-text parts are not counted), and the text of the last user message.
 */
record ChatRequest(byte[] sentBody, String model, boolean stream, boolean clientWantsUsage, OptionalLong outputLimit,
                   Tokenizer tokenizer, long inputTokens, String lastUserText) {

    /** Larger limits are refused: no deposit pays for them and they would overflow nothing useful. */
    static final long MAX_TOKENS_LIMIT = 10_000_000;

    static ChatRequest parse(byte[] sentBody, ObjectMapper json) {
        if (sentBody == null || sentBody.length == 0) {
            throw GatewayProblem.badRequest("invalid_request", "the body must be a JSON object (OpenAI chat format)");
        }
        JsonNode body;
        try {
            body = json.readTree(sentBody);
        } catch (IOException e) {
            throw GatewayProblem.badRequest("invalid_request", "the body is not valid JSON");
        }
        if (body == null || !body.isObject()) {
            throw GatewayProblem.badRequest("invalid_request", "the body must be a JSON object (OpenAI chat format)");
        }
        JsonNode model = body.get("model");
        if (model == null || !model.isTextual() || model.textValue().isBlank()) {
            throw GatewayProblem.badRequest("invalid_request", "model is missing");
        }
        JsonNode messages = body.get("messages");
        if (messages == null || !messages.isArray() || messages.isEmpty()) {
            throw GatewayProblem.badRequest("invalid_request", "messages must be a non-empty array");
        }
        Tokenizer tokenizer = Tokenizer.forModel(model.textValue());
        long inputTokens = 0;
        String lastUserText = "";
        for (JsonNode message : messages) {
            if (!message.isObject() || !message.path("role").isTextual()) {
                throw GatewayProblem.badRequest("invalid_request", "every message needs a role and content");
            }
            String text = text(message.get("content"));
            inputTokens += tokenizer.count(text);
            if ("user".equals(message.path("role").textValue())) {
                lastUserText = text;
            }
        }
        JsonNode stream = body.get("stream");
        if (stream != null && !stream.isNull() && !stream.isBoolean()) {
            throw GatewayProblem.badRequest("invalid_request", "stream must be true or false");
        }
        boolean wantsUsage = body.path("stream_options").path("include_usage").asBoolean(false);
        return new ChatRequest(sentBody, model.textValue(), stream != null && stream.asBoolean(false), wantsUsage,
                outputLimit(body), tokenizer, inputTokens, lastUserText);
    }

    private static OptionalLong outputLimit(JsonNode body) {
        for (String field : new String[] {"max_completion_tokens", "max_tokens"}) {
            JsonNode value = body.get(field);
            if (value == null || value.isNull()) {
                continue;
            }
            if (!value.canConvertToLong() || !value.isIntegralNumber() || value.longValue() < 1
                    || value.longValue() > MAX_TOKENS_LIMIT) {
                throw GatewayProblem.badRequest("invalid_request",
                        field + " must be an integer between 1 and " + MAX_TOKENS_LIMIT);
            }
            return OptionalLong.of(value.longValue());
        }
        return OptionalLong.empty();
    }

    /** A string content, or the text parts of an array content. */
    private static String text(JsonNode content) {
        if (content == null || content.isNull()) {
            return "";
        }
        if (content.isTextual()) {
            return content.textValue();
        }
        if (content.isArray()) {
            StringBuilder text = new StringBuilder();
            for (JsonNode part : content) {
                if ("text".equals(part.path("type").asText()) && part.path("text").isTextual()) {
                    text.append(text.isEmpty() ? "" : "\n").append(part.path("text").textValue());
                }
            }
            return text.toString();
        }
        throw GatewayProblem.badRequest("invalid_request", "a message's content must be a string or an array of parts");
    }
}
