package io.chanledger.api.ledger.channels.command;

import io.chanledger.api.http.ErrorBodies;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers a refused look-up in the error shape of the endpoint that asked (the ledger's vouchers
 * or the provider gateway), with {@code Retry-After}. Not logged: the refusal is the client's
 * doing and is counted in {@code chan.voucher.lookups}.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE + 100)
class LookupRefusedHandler {

    @ExceptionHandler(LookupRefusedException.class)
    ResponseEntity<Object> refused(LookupRefusedException refusal, HttpServletRequest request) {
        ResponseEntity<Object> rendered = ErrorBodies.render(request, refusal);
        return ResponseEntity.status(rendered.getStatusCode()).headers(rendered.getHeaders())
                .header(HttpHeaders.RETRY_AFTER, refusal.retryAfterSeconds()).body(rendered.getBody());
    }
}
