package io.chanledger.projections.channel;

import io.chanledger.domain.channel.ChannelClaimed;
import io.chanledger.domain.channel.ChannelClosed;
import io.chanledger.domain.channel.ChannelExpired;
import io.chanledger.domain.channel.ChannelOpenConfirmed;
import io.chanledger.domain.channel.ChannelOpened;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.domain.channel.CloseAuthorized;
import io.chanledger.domain.channel.CloseKind;
import io.chanledger.domain.channel.VoucherAccepted;
import io.chanledger.domain.contract.ContractSettings;
import io.chanledger.projections.readmodel.SequencedRow;
import java.math.BigInteger;
import java.time.Instant;

/**
 * One channel's balance as its events left it: terms, highest accepted voucher, what the chain
 * paid out. Transitions follow {@link io.chanledger.domain.channel.ChannelState#apply}, so a row
 * always equals the sequential replay of the channel's events; {@code lastActivity} is the time
 * of the last event and {@code lastSequence} its sequence number in the channel.
 */
public record ChannelBalance(
        String channelId,
        String consumer,
        String provider,
        BigInteger deposit,
        long expiry,
        ChannelStatus status,
        boolean provisional,
        BigInteger highestAmount,
        BigInteger highestNonce,
        String highestSignature,
        long voucherCount,
        BigInteger claimed,
        BigInteger feesPaid,
        BigInteger refund,
        CloseKind closeKind,
        BigInteger authorizedCloseAmount,
        Instant lastActivity,
        long lastSequence) implements SequencedRow {

    public static ChannelBalance opened(ChannelOpened e, long sequence, Instant at) {
        return new ChannelBalance(e.channelId(), e.consumer(), e.provider(), e.deposit(), e.expiry(),
                ChannelStatus.OPEN, e.provisional(), BigInteger.ZERO, null, null, 0, BigInteger.ZERO, BigInteger.ZERO,
                null, null, null, at, sequence);
    }

    public ChannelBalance confirmed(ChannelOpenConfirmed e, long sequence, Instant at) {
        return new ChannelBalance(channelId, e.consumer(), e.provider(), e.deposit(), e.expiry(), status, false,
                highestAmount, highestNonce, highestSignature, voucherCount, claimed, feesPaid, refund, closeKind,
                authorizedCloseAmount, at, sequence);
    }

    public ChannelBalance vouched(VoucherAccepted e, long sequence, Instant at) {
        return new ChannelBalance(channelId, consumer, provider, deposit, expiry, status, provisional, e.amount(),
                e.nonce(), e.signature(), voucherCount + 1, claimed, feesPaid, refund, closeKind,
                authorizedCloseAmount, at, sequence);
    }

    public ChannelBalance claimed(ChannelClaimed e, long sequence, Instant at) {
        return new ChannelBalance(channelId, consumer, provider, deposit, expiry, status, provisional, highestAmount,
                highestNonce, highestSignature, voucherCount, e.totalClaimed(), feesPaid.add(e.fee()), refund,
                closeKind, authorizedCloseAmount, at, sequence);
    }

    public ChannelBalance expired(long sequence, Instant at) {
        return withStatus(ChannelStatus.EXPIRED, refund, closeKind, sequence, at);
    }

    public ChannelBalance closed(ChannelClosed e, long sequence, Instant at) {
        return withStatus(ChannelStatus.CLOSED, e.refund(), e.kind(), sequence, at);
    }

    public ChannelBalance closeAuthorized(CloseAuthorized e, long sequence, Instant at) {
        return new ChannelBalance(channelId, consumer, provider, deposit, expiry, status, provisional, highestAmount,
                highestNonce, highestSignature, voucherCount, claimed, feesPaid, refund, closeKind, e.finalAmount(),
                at, sequence);
    }

    /** Applies any event of the channel after the first; events of other kinds leave the balance as it is. */
    public ChannelBalance apply(Object event, long sequence, Instant at) {
        return switch (event) {
            case ChannelOpenConfirmed e -> confirmed(e, sequence, at);
            case VoucherAccepted e -> vouched(e, sequence, at);
            case ChannelClaimed e -> claimed(e, sequence, at);
            case ChannelExpired e -> expired(sequence, at);
            case ChannelClosed e -> closed(e, sequence, at);
            case CloseAuthorized e -> closeAuthorized(e, sequence, at);
            default -> this;
        };
    }

    @Override
    public String key() {
        return channelId;
    }

    /** What the provider can still claim with the highest accepted voucher; nothing once closed. */
    public BigInteger claimable() {
        return status == ChannelStatus.CLOSED ? BigInteger.ZERO : highestAmount.subtract(claimed).max(BigInteger.ZERO);
    }

    /** {@link #claimable()} less the fee in force that the contract would take from that payout now. */
    public BigInteger netClaimable(ContractSettings contract) {
        return contract.netOf(claimable());
    }

    /** The deposit no accepted voucher or claim has promised to the provider; nothing once closed. */
    public BigInteger refundable() {
        return status == ChannelStatus.CLOSED ? BigInteger.ZERO : deposit.subtract(highestAmount.max(claimed));
    }

    /**
     * Money the provider may lose: something is claimable and the consumer may close (expiry
     * passed) or will be able to within {@code windowSeconds} of {@code nowEpochSeconds}.
     */
    public boolean atRisk(long nowEpochSeconds, long windowSeconds) {
        return claimable().signum() > 0 && expiry <= nowEpochSeconds + windowSeconds;
    }

    private ChannelBalance withStatus(ChannelStatus newStatus, BigInteger newRefund, CloseKind newKind, long sequence,
                                      Instant at) {
        return new ChannelBalance(channelId, consumer, provider, deposit, expiry, newStatus, provisional,
                highestAmount, highestNonce, highestSignature, voucherCount, claimed, feesPaid, newRefund, newKind,
                authorizedCloseAmount, at, sequence);
    }
}
