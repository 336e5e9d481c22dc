package io.chanledger.domain.channel;

import java.math.BigInteger;

/**
 * The ledger's answer to {@link SettleRequest}. {@code settled} is false when there was nothing
 * to settle (the request had been settled before, or no metered voucher has that nonce); the
 * amounts then describe the channel as it is, and {@code charged} is zero.
 * {@code remaining} is the deposit less the charged total.
 */
public record RequestSettlement(
        String channelId,
        BigInteger nonce,
        BigInteger cost,
        BigInteger charged,
        BigInteger chargedTotal,
        BigInteger deposit,
        BigInteger remaining,
        boolean settled) {

    /** True when the vouched amount did not cover the whole cost. */
    public boolean shortfall() {
        return charged.compareTo(cost) < 0;
    }
}
