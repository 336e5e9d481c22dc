package io.chanledger.api.http;

import java.io.IOException;
import java.util.Optional;
import org.springframework.http.HttpStatus;

/**
 * A request body past {@code chan.ledger.max-body-bytes}. Thrown by the body's stream while a
 * chunked body is read; the message converters wrap it, so the handlers of unreadable bodies look
 * for it among the causes and answer 413 {@code body_too_large}, as for a declared length.
 */
public final class BodyTooLargeException extends IOException {

    BodyTooLargeException(long maxBytes) {
        super("the request body is larger than " + maxBytes + " bytes");
    }

    /** The 413 answer when {@code failure} was caused by a body over the limit. */
    public static Optional<ApiProblem> problemIn(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof BodyTooLargeException tooLarge) {
                return Optional.of(tooLarge.problem());
            }
        }
        return Optional.empty();
    }

    ApiProblem problem() {
        return new ApiProblem(HttpStatus.PAYLOAD_TOO_LARGE, "body_too_large", getMessage());
    }
}
