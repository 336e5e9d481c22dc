package io.chanledger.api.channels;

import io.chanledger.domain.contract.ContractSettings;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.projections.channel.ChannelBalance;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Locale;

/**
 * A channel's balance. Addresses EIP-55, amounts decimal strings. In the {@link ChannelView#ON_CHAIN}
 * view the off-chain members are null, so left out of the JSON: the highest voucher, the voucher
 * count, everything derived from the highest voucher (claimable, net claimable, refundable, at
 * risk), the authorized close amount, and the last activity and sequence, which move with every
 * voucher. {@code lastSequence} is the channel's last event the answer includes.
 */
record ChannelResponse(String channelId, String consumer, String provider, BigInteger deposit, Instant expiry,
                       long expiryEpochSeconds, String status, boolean provisional, Voucher highestVoucher,
                       Long voucherCount, BigInteger claimed, BigInteger feesPaid, BigInteger claimable,
                       BigInteger netClaimable, BigInteger refundable, BigInteger refund, String closeKind,
                       BigInteger authorizedCloseAmount, Boolean atRisk, Instant lastActivity, Long lastSequence) {

    record Voucher(BigInteger amount, BigInteger nonce, String signature) {
    }

    /** {@code contract}: its fee in force now, which the next claim pays, gives the net claimable. */
    static ChannelResponse of(ChannelBalance b, ChannelView view, ContractSettings contract, long now,
                              long atRiskWindow) {
        Voucher highest = b.highestNonce() == null ? null
                : new Voucher(b.highestAmount(), b.highestNonce(), b.highestSignature());
        ChannelResponse full = new ChannelResponse(b.channelId(), Hex.toChecksumAddress(b.consumer()),
                Hex.toChecksumAddress(b.provider()), b.deposit(), Instant.ofEpochSecond(b.expiry()), b.expiry(),
                b.status().code(), b.provisional(), highest, b.voucherCount(), b.claimed(), b.feesPaid(),
                b.claimable(), b.netClaimable(contract), b.refundable(), b.refund(),
                b.closeKind() == null ? null : b.closeKind().name().toLowerCase(Locale.ROOT),
                b.authorizedCloseAmount(), b.atRisk(now, atRiskWindow), b.lastActivity(), b.lastSequence());
        return view == ChannelView.FULL ? full : full.onChainFacts();
    }

    /** Terms, status, what the contract paid out and refunded: what anyone reads from the chain. */
    private ChannelResponse onChainFacts() {
        return new ChannelResponse(channelId, consumer, provider, deposit, expiry, expiryEpochSeconds, status,
                provisional, null, null, claimed, feesPaid, null, null, null, refund, closeKind, null, null, null,
                null);
    }
}
