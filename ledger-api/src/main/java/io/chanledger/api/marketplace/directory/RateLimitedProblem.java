package io.chanledger.api.marketplace.directory;

import io.chanledger.api.http.ApiProblem;
import java.time.Duration;
import org.springframework.http.HttpStatus;

/** 429 with how long until the client may send again (answered as Retry-After, in whole seconds). */
class RateLimitedProblem extends ApiProblem {

    private final Duration retryAfter;

    RateLimitedProblem(String what, Duration retryAfter) {
        super(HttpStatus.TOO_MANY_REQUESTS, "rate_limited", "too many " + what + " from this address; send again in "
                + seconds(retryAfter) + " s");
        this.retryAfter = retryAfter;
    }

    String retryAfterSeconds() {
        return Long.toString(seconds(retryAfter));
    }

    private static long seconds(Duration duration) {
        return Math.max(1, (duration.toMillis() + 999) / 1000);
    }
}
