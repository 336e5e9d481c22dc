package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.chanledger.api.http.ApiProblem;
import java.io.IOException;
import org.springframework.http.HttpStatus;

/**
 * Reads the JSON bodies clients report with, whatever content type they declare (a beacon sends
 * text/plain), and refuses what is not JSON with 400 {@code malformed_body} naming the shape wanted.
 * Numbers with a fraction are read as decimals, exactly as sent (a cost of 0.0042 USDC stays that).
 */
final class ReportBodies {

    private final ObjectReader reader;

    ReportBodies(ObjectMapper mapper) {
        this.reader = mapper.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    }

    JsonNode json(byte[] body, String shape) {
        if (body == null || body.length == 0) {
            throw malformed("the body is empty; send " + shape);
        }
        try {
            JsonNode root = reader.readTree(body);
            if (root == null || root.isMissingNode()) {
                throw malformed("the body is empty; send " + shape);
            }
            return root;
        } catch (JsonProcessingException e) {
            throw malformed("the body is not valid JSON; send " + shape);
        } catch (IOException e) {
            throw malformed("the body could not be read; send " + shape);
        }
    }

    JsonNode object(byte[] body, String shape) {
        JsonNode root = json(body, shape);
        if (!root.isObject()) {
            throw malformed("the body must be a JSON object: " + shape);
        }
        return root;
    }

    /** The string member {@code name}; null when absent or JSON null, 400 when of another type. */
    static String optionalText(JsonNode body, String name) {
        JsonNode value = body.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw FieldProblem.field(name, "must be a string");
        }
        return value.textValue();
    }

    static String requiredText(JsonNode body, String name, String what) {
        String value = optionalText(body, name);
        if (value == null || value.isBlank()) {
            throw FieldProblem.field(name, "is required: " + what);
        }
        return value;
    }

    private static ApiProblem malformed(String detail) {
        return new ApiProblem(HttpStatus.BAD_REQUEST, "malformed_body", detail);
    }
}
