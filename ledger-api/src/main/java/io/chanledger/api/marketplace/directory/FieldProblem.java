package io.chanledger.api.marketplace.directory;

import io.chanledger.api.http.ApiProblem;
import java.util.Map;
import org.springframework.http.HttpStatus;

/** 400 problems that name the request field or query parameter at fault. */
final class FieldProblem {

    private FieldProblem() {
    }

    static ApiProblem field(String field, String detail) {
        return new ApiProblem(HttpStatus.BAD_REQUEST, "invalid_field", field + ": " + detail, Map.of("field", field));
    }

    static ApiProblem parameter(String parameter, String detail, Object allowed) {
        return new ApiProblem(HttpStatus.BAD_REQUEST, "invalid_parameter", parameter + ": " + detail,
                Map.of("parameter", parameter, "allowed", allowed));
    }
}
