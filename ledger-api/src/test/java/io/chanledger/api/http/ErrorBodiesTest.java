package io.chanledger.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.web.MockHttpServletRequest;

class ErrorBodiesTest {

    @Test
    void everyApiProblemRepeatsItsMessageInErrorForClientsThatReadDataError() {
        ResponseEntity<Object> rendered = ErrorBodies.render(new MockHttpServletRequest("POST", "/api/feedback"),
                HttpStatus.BAD_REQUEST, "invalid_field", "outcome: must be success or failure", Map.of("field", "outcome"));

        assertThat(rendered.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
        ProblemDetail problem = (ProblemDetail) rendered.getBody();
        assertThat(problem.getDetail()).isEqualTo("outcome: must be success or failure");
        assertThat(problem.getProperties()).containsEntry("error", "outcome: must be success or failure")
                .containsEntry("code", "invalid_field").containsEntry("field", "outcome");
    }

    @Test
    void theProviderInterfaceKeepsTheOpenAiShape() {
        ResponseEntity<Object> rendered = ErrorBodies.render(new MockHttpServletRequest("POST", "/v1/chat/completions"),
                HttpStatus.PAYMENT_REQUIRED, "voucher_required", "send a voucher", Map.of());

        assertThat(rendered.getBody()).isEqualTo(Map.of("error", Map.of("message", "send a voucher",
                "type", "payment_required", "code", "voucher_required")));
    }
}
