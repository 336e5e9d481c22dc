package io.chanledger.api.provider.gateway;

import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * A refusal of the provider interface, rendered as {@code {"error":{"message","type","code"}}}
 * with {@code X-CHAN-Error: code} and any extra {@code headers}.
 */
final class GatewayProblem extends RuntimeException {

    private final HttpStatus status;
    private final String code;
    private final Map<String, String> headers;

    GatewayProblem(HttpStatus status, String code, String message) {
        this(status, code, message, Map.of());
    }

    GatewayProblem(HttpStatus status, String code, String message, Map<String, String> headers) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.headers = Map.copyOf(headers);
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
}
