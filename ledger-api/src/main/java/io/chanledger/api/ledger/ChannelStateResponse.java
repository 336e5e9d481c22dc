package io.chanledger.api.ledger;

import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.time.Instant;

/** A channel's current state. Addresses are EIP-55 checksummed, amounts decimal strings. */
record ChannelStateResponse(String channelId, String consumer, String provider, BigInteger deposit, Instant expiry,
                            long expiryEpochSeconds, String status, boolean provisional, Voucher highestVoucher,
                            long voucherCount, BigInteger claimed, BigInteger feesPaid, BigInteger claimable,
                            BigInteger remaining, BigInteger refund, String closeKind,
                            BigInteger authorizedCloseAmount) {

    record Voucher(BigInteger amount, BigInteger nonce, String signature) {
    }

    static ChannelStateResponse of(ChannelState s) {
        Voucher highest = s.highestNonce() == null ? null : new Voucher(s.highestAmount(), s.highestNonce(), s.highestSignature());
        return new ChannelStateResponse(s.channelId(), Hex.toChecksumAddress(s.consumer()),
                Hex.toChecksumAddress(s.provider()), s.deposit(), Instant.ofEpochSecond(s.expiry()), s.expiry(),
                s.status().code(), s.provisional(), highest, s.voucherCount(), s.claimed(), s.feesPaid(),
                s.claimable(), s.remaining(), s.refund(), s.closeKind() == null ? null : s.closeKind().name().toLowerCase(),
                s.authorizedCloseAmount());
    }
}
