package io.chanledger.api.ledger.channels.query;

import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.contract.ContractSettings;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.projections.channel.ChannelBalance;
import io.swagger.v3.oas.annotations.media.Schema;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Locale;
import org.springframework.lang.Nullable;

/**
 * A channel's balance. Addresses EIP-55, amounts decimal strings. In the {@link ChannelView#ON_CHAIN}
 * view the off-chain members are null, so left out of the JSON: the highest voucher, the voucher
 * count, everything derived from the highest voucher (claimable, net claimable, refundable, at
 * risk), the authorized close amount, what the provider gateway charged and what its running
 * requests hold, and the last activity and sequence, which move with every voucher.
 * {@code lastSequence} is the channel's last event the answer includes. The on-chain members are
 * always present, and the OpenAPI document says so (the others are {@code @Nullable}; the web
 * pages' types are generated from it).
 */
record ChannelResponse(String channelId, String consumer, String provider, BigInteger deposit,
                       Instant expiry, long expiryEpochSeconds,
                       @Schema(allowableValues = {"open", "expired", "closed"}) String status,
                       boolean provisional, @Nullable Voucher highestVoucher, @Nullable Long voucherCount,
                       BigInteger claimed, BigInteger feesPaid, @Nullable BigInteger claimable,
                       @Nullable BigInteger netClaimable, @Nullable BigInteger refundable, @Nullable BigInteger refund,
                       @Nullable String closeKind, @Nullable BigInteger authorizedCloseAmount,
                       @Nullable BigInteger chargedTotal, @Nullable BigInteger held, @Nullable Boolean atRisk,
                       @Nullable Instant lastActivity, @Nullable Long lastSequence) {

    record Voucher(BigInteger amount, BigInteger nonce, String signature) {
    }

    /** {@code contract}: its fee in force now, which the next claim pays, gives the net claimable. */
    static ChannelResponse of(ChannelBalance b, ChannelView view, ContractSettings contract, long now,
                              long atRiskWindow) {
        ChannelState c = b.state();
        Voucher highest = c.highestNonce() == null ? null
                : new Voucher(c.highestAmount(), c.highestNonce(), c.highestSignature());
        ChannelResponse full = new ChannelResponse(c.channelId(), Hex.toChecksumAddress(c.consumer()),
                Hex.toChecksumAddress(c.provider()), c.deposit(), Instant.ofEpochSecond(c.expiry()), c.expiry(),
                c.status().code(), c.provisional(), highest, c.voucherCount(), c.claimed(), c.feesPaid(),
                c.claimable(), b.netClaimable(contract), c.refundable(), c.refund(),
                c.closeKind() == null ? null : c.closeKind().name().toLowerCase(Locale.ROOT),
                c.authorizedCloseAmount(), c.chargedTotal(), c.heldAt(now), c.atRisk(now, atRiskWindow),
                b.lastActivity(), b.lastSequence());
        return view == ChannelView.FULL ? full : full.onChainFacts();
    }

    /** Terms, status, what the contract paid out and refunded: what anyone reads from the chain. */
    private ChannelResponse onChainFacts() {
        return new ChannelResponse(channelId, consumer, provider, deposit, expiry, expiryEpochSeconds, status,
                provisional, null, null, claimed, feesPaid, null, null, null, refund, closeKind, null, null, null,
                null, null, null);
    }
}
