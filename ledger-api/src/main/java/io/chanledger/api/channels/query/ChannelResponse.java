package io.chanledger.api.channels.query;

import static io.swagger.v3.oas.annotations.media.Schema.RequiredMode.REQUIRED;

import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.contract.ContractSettings;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.projections.channel.ChannelBalance;
import io.swagger.v3.oas.annotations.media.Schema;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Locale;

/**
 * A channel's balance. Addresses EIP-55, amounts decimal strings. In the {@link ChannelView#ON_CHAIN}
 * view the off-chain members are null, so left out of the JSON: the highest voucher, the voucher
 * count, everything derived from the highest voucher (claimable, net claimable, refundable, at
 * risk), the authorized close amount, what the provider gateway charged and what its running
 * requests hold, and the last activity and sequence, which move with every voucher.
 * {@code lastSequence} is the channel's last event the answer includes. The on-chain members are
 * always present, and the OpenAPI document says so (the web pages' types are generated from it).
 */
record ChannelResponse(@Schema(requiredMode = REQUIRED) String channelId, @Schema(requiredMode = REQUIRED) String consumer,
                       @Schema(requiredMode = REQUIRED) String provider, @Schema(requiredMode = REQUIRED) BigInteger deposit,
                       @Schema(requiredMode = REQUIRED) Instant expiry, long expiryEpochSeconds,
                       @Schema(requiredMode = REQUIRED, allowableValues = {"open", "expired", "closed"}) String status,
                       boolean provisional, Voucher highestVoucher, Long voucherCount,
                       @Schema(requiredMode = REQUIRED) BigInteger claimed, @Schema(requiredMode = REQUIRED) BigInteger feesPaid,
                       BigInteger claimable,
                       BigInteger netClaimable, BigInteger refundable, BigInteger refund, String closeKind,
                       BigInteger authorizedCloseAmount, BigInteger chargedTotal, BigInteger held, Boolean atRisk,
                       Instant lastActivity, Long lastSequence) {

    record Voucher(@Schema(requiredMode = REQUIRED) BigInteger amount, @Schema(requiredMode = REQUIRED) BigInteger nonce,
                   @Schema(requiredMode = REQUIRED) String signature) {
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
