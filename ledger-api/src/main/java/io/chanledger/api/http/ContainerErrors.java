package io.chanledger.api.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import org.springframework.http.HttpStatus;

/**
 * Errors the servlet container answers on its own (a path or query it cannot parse, headers over
 * its limit, a body that does not arrive in time), written in the error shape of the request's
 * route family. The container tells only the status, so the code is the status's: 400
 * {@code malformed_request}, 408 {@code request_timeout}, 413 {@code body_too_large}, any 5xx
 * {@code internal_error}, and otherwise the status's name ({@code not_found}, ...).
 */
final class ContainerErrors {

    private ContainerErrors() {
    }

    static void write(String path, HttpServletResponse response, ObjectMapper mapper, int statusCode)
            throws IOException {
        HttpStatus status = HttpStatus.resolve(statusCode);
        if (status == null || status.is5xxServerError()) {
            status = HttpStatus.INTERNAL_SERVER_ERROR;
        }
        ErrorBodies.write(path, response, mapper, status, code(status), detail(status));
    }

    private static String code(HttpStatus status) {
        return switch (status) {
            case BAD_REQUEST -> "malformed_request";
            case PAYLOAD_TOO_LARGE -> "body_too_large";
            case INTERNAL_SERVER_ERROR -> "internal_error";
            default -> status.name().toLowerCase(Locale.ROOT);
        };
    }

    private static String detail(HttpStatus status) {
        return switch (status) {
            case BAD_REQUEST -> "the request is not valid HTTP: a malformed path, query or header, or headers too large";
            case REQUEST_TIMEOUT -> "the request body did not arrive in time";
            case NOT_FOUND -> "no such resource";
            case INTERNAL_SERVER_ERROR -> "an internal error occurred; it has been logged";
            default -> status.getReasonPhrase().toLowerCase(Locale.ROOT);
        };
    }
}
