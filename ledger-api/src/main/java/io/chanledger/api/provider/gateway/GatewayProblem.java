package io.chanledger.api.provider.gateway;

import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * A refusal of the provider interface, rendered as {@code {"error":{"message","type","code"}}}
 * with {@code X-CHAN-Error: code}, any extra {@code headers} and any extra {@code fields} beside
 * {@code error} in the body (x402's v1 fields of an unpaid answer).
 */
final class GatewayProblem extends RuntimeException {

    private final HttpStatus status;
    private final String code;
    private final Map<String, String> headers;
    private final Map<String, Object> fields;

    GatewayProblem(HttpStatus status, String code, String message) {
        this(status, code, message, Map.of());
    }

    GatewayProblem(HttpStatus status, String code, String message, Map<String, String> headers) {
        this(status, code, message, headers, Map.of());
    }

    GatewayProblem(HttpStatus status, String code, String message, Map<String, String> headers,
                   Map<String, Object> fields) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.headers = Map.copyOf(headers);
        this.fields = Map.copyOf(fields);
    }

    static GatewayProblem badRequest(String code, String message) {
        return new GatewayProblem(HttpStatus.BAD_REQUEST, code, message);
    }

    HttpStatus status() {
        return status;
    }

    String code() {
        return code;
    }

    Map<String, String> headers() {
        return headers;
    }

    Map<String, Object> fields() {
        return fields;
    }
}
