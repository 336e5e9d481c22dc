package io.chanledger.api.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * The two error shapes of the service. {@code /api/*}: RFC 9457 problem+json with {@code code},
 * and {@code error} repeating {@code detail}, since agent clients show {@code data.error} to the
 * agent and would otherwise show nothing (RFC 9457 allows extension members).
 * {@code /v1/*} (called by OpenAI-style clients): {@code {"error":{"message","type","code"}}} and
 * the {@code X-CHAN-Error} header. Both carry only what the caller may see: never a stack trace.
 */
public final class ErrorBodies {

    public static final String CHAN_ERROR_HEADER = "X-CHAN-Error";
    private static final URI PROBLEM_TYPE_BASE = URI.create("https://chanledger.io/problems/");

    private ErrorBodies() {
    }

    public static boolean isProviderInterface(HttpServletRequest request) {
        return isProviderInterface(request.getRequestURI());
    }

    static boolean isProviderInterface(String path) {
        return path != null && path.startsWith("/v1/");
    }

    public static ResponseEntity<Object> render(HttpServletRequest request, ApiProblem problem) {
        return render(request, problem.status(), problem.code(), problem.getMessage(), problem.properties());
    }

    public static ResponseEntity<Object> render(HttpServletRequest request, HttpStatus status, String code,
                                                String detail, Map<String, Object> properties) {
        return render(request.getRequestURI(), status, code, detail, properties);
    }

    /** The error shape of {@code path}'s route family, for answers given on behalf of another request. */
    static ResponseEntity<Object> render(String path, HttpStatus status, String code, String detail,
                                         Map<String, Object> properties) {
        if (isProviderInterface(path)) {
            return ResponseEntity.status(status)
                    .header(CHAN_ERROR_HEADER, code)
                    .contentType(MediaType.APPLICATION_JSON)
                    .body(openAiError(status, code, detail));
        }
        return ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem(path, status, code, detail, properties));
    }

    public static ProblemDetail problem(HttpServletRequest request, HttpStatus status, String code, String detail,
                                        Map<String, Object> properties) {
        return problem(request.getRequestURI(), status, code, detail, properties);
    }

    private static ProblemDetail problem(String path, HttpStatus status, String code, String detail,
                                         Map<String, Object> properties) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, detail);
        body.setType(PROBLEM_TYPE_BASE.resolve(code));
        body.setTitle(status.getReasonPhrase());
        instance(path).ifPresent(body::setInstance);
        body.setProperty("code", code);
        body.setProperty("error", detail);
        properties.forEach(body::setProperty);
        return body;
    }

    public static Map<String, Object> openAiError(HttpStatus status, String code, String message) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("message", message);
        error.put("type", openAiType(status));
        error.put("code", code);
        return Map.of("error", error);
    }

    /** For filters, which answer before any controller advice is reached. */
    public static void write(HttpServletRequest request, HttpServletResponse response, ObjectMapper mapper,
                             HttpStatus status, String code, String detail) throws IOException {
        write(request.getRequestURI(), response, mapper, status, code, detail);
    }

    static void write(String path, HttpServletResponse response, ObjectMapper mapper, HttpStatus status, String code,
                      String detail) throws IOException {
        write(path, response, mapper, status, code, detail, Map.of());
    }

    static void write(String path, HttpServletResponse response, ObjectMapper mapper, HttpStatus status, String code,
                      String detail, Map<String, Object> properties) throws IOException {
        ResponseEntity<Object> entity = render(path, status, code, detail, properties);
        response.setStatus(status.value());
        entity.getHeaders().forEach((name, values) -> values.forEach(v -> response.addHeader(name, v)));
        response.setHeader(HttpHeaders.CONTENT_TYPE, String.valueOf(entity.getHeaders().getContentType()));
        mapper.writeValue(response.getOutputStream(), entity.getBody());
    }

    /**
     * The path as the problem's {@code instance}. The container's refusals are rendered here too,
     * some of them for paths that are not valid URIs (a bad {@code %} escape): those have none.
     */
    private static Optional<URI> instance(String path) {
        if (path == null || path.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(URI.create(path));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String openAiType(HttpStatus status) {
        return switch (status) {
            case PAYMENT_REQUIRED -> "payment_required";
            case BAD_GATEWAY, GATEWAY_TIMEOUT -> "upstream_error";
            case SERVICE_UNAVAILABLE, INTERNAL_SERVER_ERROR -> "server_error";
            case NOT_FOUND -> "not_found_error";
            default -> "invalid_request_error";
        };
    }
}
