package io.chanledger.api.marketplace.directory;

import io.chanledger.api.http.ErrorBodies;
import io.chanledger.domain.provider.ProviderRejectedException;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.axonframework.modelling.command.ConcurrencyException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * The Provider aggregate's refusals, two decisions about one provider made at the same moment, and
 * rate-limited reports (with Retry-After).
 */
@RestControllerAdvice(basePackageClasses = MarketplaceExceptionHandler.class)
@Order(Ordered.HIGHEST_PRECEDENCE + 100)
class MarketplaceExceptionHandler {

    @ExceptionHandler(ProviderRejectedException.class)
    ResponseEntity<Object> rejected(ProviderRejectedException rejection, HttpServletRequest request) {
        return ErrorBodies.render(request, HttpStatus.BAD_REQUEST, rejection.reason().code(), rejection.getMessage(),
                Map.of());
    }

    @ExceptionHandler(RateLimitedProblem.class)
    ResponseEntity<Object> rateLimited(RateLimitedProblem problem, HttpServletRequest request) {
        ResponseEntity<Object> rendered = ErrorBodies.render(request, problem);
        return ResponseEntity.status(rendered.getStatusCode()).headers(rendered.getHeaders())
                .header(HttpHeaders.RETRY_AFTER, problem.retryAfterSeconds()).body(rendered.getBody());
    }

    @ExceptionHandler(ConcurrencyException.class)
    ResponseEntity<Object> concurrent(ConcurrencyException e, HttpServletRequest request) {
        return ErrorBodies.render(request, HttpStatus.CONFLICT, "concurrent_update",
                "another change to this provider was recorded at the same moment; nothing was recorded, retry", Map.of());
    }
}
