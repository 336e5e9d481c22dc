package io.chanledger.domain.channel;

import java.math.BigInteger;

/**
 * The paid request a metered voucher is sent with: {@code hold} base units (the request's
 * estimated cost) are reserved for it until it is settled, or until {@code holdUntil} (epoch
 * seconds) passes, so that concurrent requests on one channel cannot spend the same room twice.
 */
public record MeteredRequest(BigInteger hold, long holdUntil) {

    public MeteredRequest {
        if (hold == null || hold.signum() < 0) {
            throw new IllegalArgumentException("a hold is a non-negative amount");
        }
    }
}
