package io.chanledger.domain.channel;

import java.math.BigInteger;

/**
 * The paid request a metered voucher is sent with, at the gateway of {@code provider} (lowercase
 * address; a voucher for another provider's channel is refused): {@code hold} base units (what
 * the request needs before its cost is known) are reserved for it until it is settled, or until
 * {@code holdUntil} (epoch seconds) passes, so that concurrent requests on one channel cannot
 * spend the same room twice. {@code closeExposure}: how far the channel may be charged above a
 * close authorization handed out on a request that did not prove it came from the consumer,
 * before that authorization is voided by a claim. {@code model}: what the request buys (the gateway's
 * model or service id), recorded on its voucher so that revenue can be told per model; null when
 * not told.
 */
public record MeteredRequest(BigInteger hold, long holdUntil, String provider, BigInteger closeExposure,
                             String model) {

    /** What the gateway allows by default above such a close authorization: 0.1 USDC. */
    public static final BigInteger DEFAULT_CLOSE_EXPOSURE = BigInteger.valueOf(100_000);

    public MeteredRequest(BigInteger hold, long holdUntil, String provider) {
        this(hold, holdUntil, provider, DEFAULT_CLOSE_EXPOSURE, null);
    }

    public MeteredRequest(BigInteger hold, long holdUntil, String provider, BigInteger closeExposure) {
        this(hold, holdUntil, provider, closeExposure, null);
    }

    public MeteredRequest(BigInteger hold, long holdUntil, String provider, String model) {
        this(hold, holdUntil, provider, DEFAULT_CLOSE_EXPOSURE, model);
    }

    public MeteredRequest {
        requireNonNegative(hold, "a hold");
        requireNonNegative(closeExposure, "the close exposure");
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
