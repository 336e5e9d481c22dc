package io.chanledger.api.channels;

import io.chanledger.domain.eip712.Hex;
import io.chanledger.projections.channel.ChannelBalance;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Locale;

/**
 * A channel's balance. Addresses EIP-55, amounts decimal strings. The highest voucher's
 * signature is there only for the channel's own wallets (see README, wallet-signed requests);
 * {@code lastSequence} is the channel's last event the answer includes.
 */
record ChannelResponse(String channelId, String consumer, String provider, BigInteger deposit, Instant expiry,
                       long expiryEpochSeconds, String status, boolean provisional, Voucher highestVoucher,
                       long voucherCount, BigInteger claimed, BigInteger feesPaid, BigInteger claimable,
                       BigInteger netClaimable, BigInteger refundable, BigInteger refund, String closeKind,
                       BigInteger authorizedCloseAmount, boolean atRisk, Instant lastActivity, long lastSequence) {

    record Voucher(BigInteger amount, BigInteger nonce, String signature) {
    }

    static ChannelResponse of(ChannelBalance b, int feeBps, long now, long atRiskWindow, boolean withSignature) {
        Voucher highest = b.highestNonce() == null ? null
                : new Voucher(b.highestAmount(), b.highestNonce(), withSignature ? b.highestSignature() : null);
        return new ChannelResponse(b.channelId(), Hex.toChecksumAddress(b.consumer()),
                Hex.toChecksumAddress(b.provider()), b.deposit(), Instant.ofEpochSecond(b.expiry()), b.expiry(),
                b.status().code(), b.provisional(), highest, b.voucherCount(), b.claimed(), b.feesPaid(),
                b.claimable(), b.netClaimable(feeBps), b.refundable(), b.refund(),
                b.closeKind() == null ? null : b.closeKind().name().toLowerCase(Locale.ROOT),
                b.authorizedCloseAmount(), b.atRisk(now, atRiskWindow), b.lastActivity(), b.lastSequence());
    }
}
