package io.chanledger.domain.channel;

import java.math.BigInteger;

/**
 * The ledger accepted a voucher: the provider may claim up to {@code amount}. {@code increment}
 * is what this voucher added to the previous highest one. {@code acceptedAt} in epoch seconds.
 */
public record VoucherAccepted(
        String channelId,
        BigInteger amount,
        BigInteger nonce,
        String signature,
        BigInteger increment,
        long acceptedAt) {
}
