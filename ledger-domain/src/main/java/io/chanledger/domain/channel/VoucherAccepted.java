package io.chanledger.domain.channel;

import java.math.BigInteger;

/**
 * The ledger accepted a voucher: the provider may claim up to {@code amount}. {@code increment}
 * is what this voucher added to the previous highest one. {@code acceptedAt} in epoch seconds.
 *
 * <p>For a metered voucher (one that pays for a request at the provider gateway) {@code hold} is
 * what the request reserves before its cost is known (a streamed answer may raise it, {@link
 * HoldRaised}), until {@code holdUntil} or until the request is settled ({@link RequestSettled}),
 * and {@code chargedTotal} what the channel had been charged when the
 * voucher was accepted. All three are null for a plain voucher, and in events recorded before
 * metering existed. {@code model} is what the metered request buys (the gateway's model or service
 * id); null for a plain voucher and in events recorded before it was kept.
 */
public record VoucherAccepted(
        String channelId,
        BigInteger amount,
        BigInteger nonce,
        String signature,
        BigInteger increment,
        long acceptedAt,
        BigInteger hold,
        Long holdUntil,
        BigInteger chargedTotal,
        String model) implements ChannelEvent {

    public VoucherAccepted(String channelId, BigInteger amount, BigInteger nonce, String signature,
                           BigInteger increment, long acceptedAt) {
        this(channelId, amount, nonce, signature, increment, acceptedAt, null, null, null, null);
    }

    public VoucherAccepted(String channelId, BigInteger amount, BigInteger nonce, String signature,
                           BigInteger increment, long acceptedAt, BigInteger hold, Long holdUntil,
                           BigInteger chargedTotal) {
        this(channelId, amount, nonce, signature, increment, acceptedAt, hold, holdUntil, chargedTotal, null);
    }

    public boolean metered() {
        return hold != null;
    }
}
