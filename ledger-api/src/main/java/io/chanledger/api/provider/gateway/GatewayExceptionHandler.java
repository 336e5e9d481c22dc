package io.chanledger.api.provider.gateway;

import io.chanledger.api.http.ApiProblem;
import io.chanledger.api.http.BodyTooLargeException;
import io.chanledger.api.http.ErrorBodies;
import io.chanledger.domain.channel.VoucherRejectedException;
import io.chanledger.domain.channel.VoucherRejection;
import jakarta.servlet.http.HttpServletRequest;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Errors of the provider interface, in the OpenAI shape with {@code X-CHAN-Error}. Every voucher
 * rejection is a 402 with the protocol's code and the payment discovery headers;
 * {@code insufficient_funds} adds, with the deployed providers' meanings, {@code X-CHAN-Required}:
 * this request's hold (what it needs before the upstream call), and {@code X-CHAN-Provided}: what
 * the voucher leaves for it, its amount less what the channel was charged (negative when the
 * amount is below that). What is not handled here falls through to the service-wide handler,
 * which renders {@code /v1} errors in the same shape.
 */
@RestControllerAdvice(assignableTypes = {ChatCompletionsController.class, CloseChannelController.class,
        ProviderInfoController.class, EchoEndpointController.class,
        WordCountEndpointController.class})
@Order(Ordered.HIGHEST_PRECEDENCE)
class GatewayExceptionHandler {

    static final String REQUIRED_HEADER = "X-CHAN-Required";
    static final String PROVIDED_HEADER = "X-CHAN-Provided";

    private final ObjectProvider<PaymentTerms> terms;

    GatewayExceptionHandler(ObjectProvider<PaymentTerms> terms) {
        this.terms = terms;
    }

    @ExceptionHandler(GatewayProblem.class)
    ResponseEntity<Object> problem(GatewayProblem problem, HttpServletRequest request) {
        HttpHeaders extra = new HttpHeaders();
        problem.headers().forEach(extra::set);
        if (problem.status() == HttpStatus.PAYMENT_REQUIRED) {
            extra.addAll(terms.getObject().headers(request));
        }
        ResponseEntity<Object> rendered = render(request, problem.status(), problem.code(), problem.getMessage(), extra);
        if (problem.fields().isEmpty() || !(rendered.getBody() instanceof Map<?, ?> body)) {
            return rendered;
        }
        Map<Object, Object> withFields = new LinkedHashMap<>(body);
        problem.fields().forEach(withFields::putIfAbsent);
        return ResponseEntity.status(rendered.getStatusCode()).headers(rendered.getHeaders()).body(withFields);
    }

    @ExceptionHandler(VoucherRejectedException.class)
    ResponseEntity<Object> rejected(VoucherRejectedException rejection, HttpServletRequest request) {
        HttpHeaders extra = terms.getObject().headers(request);
        if (rejection.hold() != null && rejection.provided() != null) {
            extra.set(REQUIRED_HEADER, rejection.hold().toString());
            extra.set(PROVIDED_HEADER, rejection.provided().toString());
        }
        if (rejection.reason() == VoucherRejection.CLAIM_PENDING) {
            // nothing to pay differently: the same request goes through once the claim is on-chain, or
            // once the request running on the channel is done
            extra.set(HttpHeaders.RETRY_AFTER, "30");
            return render(request, HttpStatus.CONFLICT, rejection.reason().providerCode(),
                    rejection.getMessage(), extra);
        }
        return render(request, HttpStatus.PAYMENT_REQUIRED, rejection.reason().providerCode(),
                rejection.getMessage(), extra);
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<Object> unreadable(HttpMessageNotReadableException e, HttpServletRequest request) {
        Optional<ApiProblem> tooLarge = BodyTooLargeException.problemIn(e);
        if (tooLarge.isPresent()) {
            return ErrorBodies.render(request, tooLarge.get());
        }
        return render(request, HttpStatus.BAD_REQUEST, "invalid_request", "the body is not the JSON expected here",
                new HttpHeaders());
    }

    private static ResponseEntity<Object> render(HttpServletRequest request, HttpStatus status, String code,
                                                 String message, HttpHeaders extra) {
        ResponseEntity<Object> base = ErrorBodies.render(request, status, code, message, Map.of());
        return ResponseEntity.status(status)
                .headers(base.getHeaders())
                .headers(extra)
                .body(base.getBody());
    }
}
