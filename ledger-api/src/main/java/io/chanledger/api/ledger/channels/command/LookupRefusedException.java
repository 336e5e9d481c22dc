package io.chanledger.api.ledger.channels.command;

import io.chanledger.api.http.ApiProblem;
import java.time.Duration;
import org.springframework.http.HttpStatus;

/**
 * A voucher for a channel the ledger has not recorded, refused before the node was asked because a
 * look-up budget is spent: 429 {@code lookup_rate_limited} with {@code Retry-After}, in the error
 * shape of the endpoint (problem+json under {@code /api}, the OpenAI shape and {@code X-CHAN-Error}
 * under {@code /v1}). Nothing is recorded.
 */
public class LookupRefusedException extends ApiProblem {

    public static final String CODE = "lookup_rate_limited";

    private final Duration retryAfter;

    LookupRefusedException(String detail, Duration retryAfter) {
        super(HttpStatus.TOO_MANY_REQUESTS, CODE, detail);
        this.retryAfter = retryAfter;
    }

    public Duration retryAfter() {
        return retryAfter;
    }

    /** Retry-After in whole seconds, at least one. */
    String retryAfterSeconds() {
        return Long.toString(Math.max(1, (retryAfter.toMillis() + 999) / 1000));
    }
}
