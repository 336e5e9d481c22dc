package io.chanledger.domain.channel;

import java.math.BigInteger;

/**
 * The ledger's answer to {@link SettleRequest}. {@code settled} is false when there was nothing
 * to settle (the request had been settled before, or no metered voucher has that nonce); the
 * amounts then describe the channel as it is, and {@code charged} is zero.
 * {@code remaining} is the deposit less the charged total. {@code passedUnprovenClose}: this
 * charge took the channel above a close authorization the consumer did not prove to have asked
 * for, so the provider's claim above it is due now (until it is recorded, the channel serves no
 * more requests).
 */
public record RequestSettlement(
        String channelId,
        BigInteger nonce,
        BigInteger cost,
        BigInteger charged,
        BigInteger chargedTotal,
        BigInteger deposit,
        BigInteger remaining,
        boolean settled,
        boolean passedUnprovenClose) {

    public RequestSettlement(String channelId, BigInteger nonce, BigInteger cost, BigInteger charged,
                             BigInteger chargedTotal, BigInteger deposit, BigInteger remaining, boolean settled) {
        this(channelId, nonce, cost, charged, chargedTotal, deposit, remaining, settled, false);
    }

    /** True when the vouched amount did not cover the whole cost. */
    public boolean shortfall() {
        return charged.compareTo(cost) < 0;
    }
}
