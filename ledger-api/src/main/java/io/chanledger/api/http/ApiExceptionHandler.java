package io.chanledger.api.http;

import io.chanledger.domain.channel.VoucherRejectedException;
import io.chanledger.domain.channel.VoucherRejection;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.dao.DataAccessException;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.axonframework.modelling.command.ConcurrencyException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.NoHandlerFoundException;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * Turns every failure into one of the two error shapes, so that no input yields a stack trace.
 * Unexpected failures are logged here with their cause and answered without details.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
class ApiExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

    private final BrowserNotFound browserNotFound;

    ApiExceptionHandler(BrowserNotFound browserNotFound) {
        this.browserNotFound = browserNotFound;
    }

    @ExceptionHandler(ApiProblem.class)
    ResponseEntity<Object> problem(ApiProblem problem, HttpServletRequest request) {
        return ErrorBodies.render(request, problem);
    }

    @ExceptionHandler(VoucherRejectedException.class)
    ResponseEntity<Object> voucherRejected(VoucherRejectedException rejection, HttpServletRequest request) {
        return ErrorBodies.render(request, HttpStatus.valueOf(rejection.reason().ledgerStatus()),
                rejection.reason().code(), rejection.getMessage(), Map.of());
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<Object> unreadable(HttpMessageNotReadableException e, HttpServletRequest request) {
        Optional<ApiProblem> tooLarge = BodyTooLargeException.problemIn(e);
        if (tooLarge.isPresent()) {
            return ErrorBodies.render(request, tooLarge.get());
        }
        return ErrorBodies.render(request, HttpStatus.BAD_REQUEST, "malformed_body",
                "the request body is not valid JSON of the expected shape", Map.of());
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ResponseEntity<Object> mediaType(HttpMediaTypeNotSupportedException e, HttpServletRequest request) {
        return ErrorBodies.render(request, HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type",
                "send the body as application/json", Map.of());
    }

    @ExceptionHandler(HttpMediaTypeNotAcceptableException.class)
    ResponseEntity<Object> notAcceptable(HttpMediaTypeNotAcceptableException e, HttpServletRequest request) {
        return ErrorBodies.render(request, HttpStatus.NOT_ACCEPTABLE, "not_acceptable",
                "this resource is available as application/json", Map.of());
    }

    @ExceptionHandler({MethodArgumentTypeMismatchException.class, MissingServletRequestParameterException.class,
            MissingRequestHeaderException.class})
    ResponseEntity<Object> badParameter(Exception e, HttpServletRequest request) {
        String name = switch (e) {
            case MethodArgumentTypeMismatchException m -> m.getName();
            case MissingServletRequestParameterException m -> m.getParameterName();
            case MissingRequestHeaderException m -> m.getHeaderName();
            default -> "request";
        };
        return ErrorBodies.render(request, HttpStatus.BAD_REQUEST, "invalid_parameter",
                "parameter '" + name + "' is missing or malformed", Map.of("parameter", name));
    }

    /**
     * No route, in either form Spring reports it (with or without static resources to look in): a
     * page for a browser, the error body for an API client ({@link BrowserNotFound}).
     */
    @ExceptionHandler({NoResourceFoundException.class, NoHandlerFoundException.class})
    ResponseEntity<?> notFound(Exception e, HttpServletRequest request) {
        Optional<ResponseEntity<byte[]>> page = browserNotFound.page(request);
        if (page.isPresent()) {
            return page.get();
        }
        return browserNotFound.varying(request,
                ErrorBodies.render(request, HttpStatus.NOT_FOUND, "not_found", "no such resource", Map.of()));
    }

    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    ResponseEntity<Object> method(HttpRequestMethodNotSupportedException e, HttpServletRequest request) {
        return ErrorBodies.render(request, HttpStatus.METHOD_NOT_ALLOWED, "method_not_allowed",
                "method " + e.getMethod() + " is not supported here", Map.of());
    }

    @ExceptionHandler(DataAccessException.class)
    ResponseEntity<Object> storage(DataAccessException e, HttpServletRequest request) {
        log.error("storage failure on {} {}", request.getMethod(), request.getRequestURI(), e);
        return ErrorBodies.render(request, HttpStatus.SERVICE_UNAVAILABLE, "storage_unavailable",
                "the ledger's storage is unavailable; nothing was recorded, retry later", Map.of());
    }

    /**
     * A command that lost every retry against writes of other instances to the same aggregate:
     * nothing of it was recorded, and sending it again decides it on fresh state.
     */
    @ExceptionHandler({ConcurrencyException.class, AggregateStreamCreationException.class})
    ResponseEntity<Object> concurrentUpdate(Exception e, HttpServletRequest request) {
        log.warn("{} {} lost repeated races with other instances: {}", request.getMethod(), request.getRequestURI(),
                e.getMessage());
        return ErrorBodies.render(request, HttpStatus.CONFLICT, "concurrent_update",
                "the channel changed at the same moment on another instance; nothing was recorded, send the "
                        + "request again", Map.of());
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<Object> unexpected(Exception e, HttpServletRequest request) {
        log.error("unexpected failure on {} {}", request.getMethod(), request.getRequestURI(), e);
        return ErrorBodies.render(request, HttpStatus.INTERNAL_SERVER_ERROR, "internal_error",
                "an internal error occurred; it has been logged", Map.of());
    }
}
