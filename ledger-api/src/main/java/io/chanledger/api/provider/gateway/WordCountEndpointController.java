package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * A word-count service served unpaid ({@code POST /demo/word-count} {@code {"text": "..."}} answers
 * {@code {"words", "characters", "lines"}}), when {@code chan.gateway.word-count-endpoint} is on:
 * the HTTP upstream of the local network's flat-priced demo service, and the baseline the gateway
 * benchmark compares paid service requests with. Off by default: it serves without payment.
 */
@RestController
@ConditionalOnProperty(prefix = "chan.gateway", name = "word-count-endpoint", havingValue = "true")
class WordCountEndpointController {

    private final ObjectMapper json;

    WordCountEndpointController(ObjectMapper json) {
        this.json = json;
    }

    @PostMapping(path = "/demo/word-count", produces = MediaType.APPLICATION_JSON_VALUE)
    ObjectNode count(@RequestBody(required = false) byte[] body) {
        JsonNode request;
        try {
            request = body == null ? null : json.readTree(body);
        } catch (IOException e) {
            request = null;
        }
        if (request == null || !request.path("text").isTextual()) {
            throw GatewayProblem.badRequest("invalid_request", "the body must be a JSON object with a string text");
        }
        String text = request.path("text").textValue();
        String trimmed = text.strip();
        ObjectNode answer = json.createObjectNode();
        answer.put("words", trimmed.isEmpty() ? 0 : trimmed.split("\\s+").length);
        answer.put("characters", text.codePointCount(0, text.length()));
        answer.put("lines", text.isEmpty() ? 0 : text.split("\n", -1).length);
        return answer;
    }
}
