package io.chanledger.domain.channel;

import java.math.BigInteger;

/**
 * The paid request a metered voucher is sent with, at the gateway of {@code provider} (lowercase
 * address; a voucher for another provider's channel is refused): {@code hold} base units (the
 * request's estimated cost) are reserved for it until it is settled, or until {@code holdUntil}
 * (epoch seconds) passes, so that concurrent requests on one channel cannot spend the same room
 * twice.
 */
public record MeteredRequest(BigInteger hold, long holdUntil, String provider) {

    public MeteredRequest {
        if (hold == null || hold.signum() < 0) {
            throw new IllegalArgumentException("a hold is a non-negative amount");
        }
        if (provider == null) {
            throw new IllegalArgumentException("a metered request names the provider serving it");
        }
    }
}
