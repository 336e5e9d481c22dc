package io.chanledger.domain.channel;

import java.math.BigInteger;

/**
 * The ledger's answer to an accepted voucher. {@code duplicate} is true when the same voucher had
 * already been accepted: the answer is the same as the first time and nothing new was recorded.
 *
 * <p>For a metered voucher: {@code chargedTotal} is what the channel had been charged when it was
 * accepted, {@code hold} the reservation made for the request, and {@code coverage} what the
 * voucher left for the request when it was accepted (its amount less the charged total and the
 * other requests' holds; what it is charged in the end is decided when it is settled). Null for a
 * plain voucher.
 */
public record VoucherReceipt(
        String channelId,
        BigInteger amount,
        BigInteger nonce,
        BigInteger increment,
        BigInteger deposit,
        BigInteger remaining,
        ChannelStatus status,
        boolean duplicate,
        BigInteger chargedTotal,
        BigInteger hold,
        BigInteger coverage) {

    public VoucherReceipt(String channelId, BigInteger amount, BigInteger nonce, BigInteger increment,
                          BigInteger deposit, BigInteger remaining, ChannelStatus status, boolean duplicate) {
        this(channelId, amount, nonce, increment, deposit, remaining, status, duplicate, null, null, null);
    }
}
