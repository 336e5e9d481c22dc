package io.chanledger.domain.channel;

import java.math.BigInteger;

/**
 * The paid request a metered voucher is sent with, at the gateway of {@code provider} (lowercase
 * address; a voucher for another provider's channel is refused): {@code hold} base units (what
 * the request needs before its cost is known) are reserved for it until it is settled, or until
 * {@code holdUntil} (epoch seconds) passes, so that concurrent requests on one channel cannot
 * spend the same room twice. {@code model}: what the request buys (the gateway's model or service
 * id), recorded on its voucher so that revenue can be told per model; null when not told.
 */
public record MeteredRequest(BigInteger hold, long holdUntil, String provider, String model) {

    public MeteredRequest(BigInteger hold, long holdUntil, String provider) {
        this(hold, holdUntil, provider, null);
    }

    public MeteredRequest {
        requireNonNegative(hold, "a hold");
        if (provider == null) {
            throw new IllegalArgumentException("a metered request names the provider serving it");
        }
    }

    /** The rule of every amount a paid request's commands carry: present and not negative. */
    static void requireNonNegative(BigInteger amount, String what) {
        if (amount == null || amount.signum() < 0) {
            throw new IllegalArgumentException(what + " is a non-negative amount");
        }
    }
}
