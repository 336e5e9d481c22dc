package io.chanledger.domain.channel;

/**
 * An unsigned close authorization at a new amount asked for sooner than the channel's interval
 * after the last one: each new one may cost the provider a claim, so a stranger cannot have the
 * provider claim after every request of the consumer. Nothing is recorded;
 * {@code retryAfterSeconds} (at least one) says when it will be granted.
 */
public class CloseAuthorizationRateLimitedException extends RuntimeException {

    private final long retryAfterSeconds;

    public CloseAuthorizationRateLimitedException(String message, long retryAfterSeconds) {
        super(message, null, false, false);
        this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
