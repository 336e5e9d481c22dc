package io.chanledger.domain.channel;

import java.math.BigInteger;

/**
 * The ledger's answer to an accepted voucher. {@code duplicate} is true when the same voucher had
 * already been accepted: the answer is the same as the first time and nothing new was recorded.
 */
public record VoucherReceipt(
        String channelId,
        BigInteger amount,
        BigInteger nonce,
        BigInteger increment,
        BigInteger deposit,
        BigInteger remaining,
        ChannelStatus status,
        boolean duplicate) {
}
