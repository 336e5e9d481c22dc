package io.chanledger.api.http;

import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * A refusal with a stable machine-readable {@code code}. Rendered as RFC 9457 problem+json under
 * {@code /api}, and as an OpenAI-style error with {@code X-CHAN-Error} under {@code /v1}.
 * {@code properties} are extra members of the problem (and extra headers are the caller's job).
 */
public class ApiProblem extends RuntimeException {

    private final HttpStatus status;
    private final String code;
    private final Map<String, Object> properties;

    public ApiProblem(HttpStatus status, String code, String detail) {
        this(status, code, detail, Map.of());
    }

    public ApiProblem(HttpStatus status, String code, String detail, Map<String, Object> properties) {
        super(detail, null, false, false);
        this.status = status;
        this.code = code;
        this.properties = Map.copyOf(properties);
    }

    public HttpStatus status() {
        return status;
    }

    public String code() {
        return code;
    }

    public Map<String, Object> properties() {
        return properties;
    }
}
