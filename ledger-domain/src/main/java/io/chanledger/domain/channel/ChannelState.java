package io.chanledger.domain.channel;

import java.math.BigInteger;

/**
 * A channel's state folded from its events, in order. Used to answer reads straight from the
 * event store and to check that any other view of a channel equals a sequential replay.
 * {@code chargedTotal} is what the provider gateway charged for the requests it served.
 */
public record ChannelState(
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
        BigInteger chargedTotal) {

    /** Replays events of one channel, oldest first. Unknown event types are passed over. */
    public static ChannelState replay(Iterable<?> events) {
        ChannelState state = null;
        for (Object event : events) {
            state = state == null ? opening(event) : state.apply(event);
        }
        return state;
    }

    private static ChannelState opening(Object event) {
        if (!(event instanceof ChannelOpened opened)) {
            throw new IllegalArgumentException("a channel's history starts with ChannelOpened, not " + event);
        }
        return new ChannelState(opened.channelId(), opened.consumer(), opened.provider(), opened.deposit(),
                opened.expiry(), ChannelStatus.OPEN, opened.provisional(), BigInteger.ZERO, null, null, 0,
                BigInteger.ZERO, BigInteger.ZERO, null, null, null, BigInteger.ZERO);
    }

    public ChannelState apply(Object event) {
        return switch (event) {
            case ChannelOpenConfirmed e -> new ChannelState(channelId, e.consumer(), e.provider(), e.deposit(),
                    e.expiry(), status, false, highestAmount, highestNonce, highestSignature, voucherCount, claimed,
                    feesPaid, refund, closeKind, authorizedCloseAmount, chargedTotal);
            case VoucherAccepted e -> new ChannelState(channelId, consumer, provider, deposit, expiry, status,
                    provisional, e.amount(), e.nonce(), e.signature(), voucherCount + 1, claimed, feesPaid, refund,
                    closeKind, authorizedCloseAmount, chargedTotal);
            case ChannelClaimed e -> new ChannelState(channelId, consumer, provider, deposit, expiry, status,
                    provisional, highestAmount, highestNonce, highestSignature, voucherCount, e.totalClaimed(),
                    feesPaid.add(e.fee()), refund, closeKind, authorizedCloseAmount, chargedTotal);
            case ChannelExpired e -> withStatus(ChannelStatus.EXPIRED, refund, closeKind);
            case ChannelClosed e -> withStatus(ChannelStatus.CLOSED, e.refund(), e.kind());
            case CloseAuthorized e -> new ChannelState(channelId, consumer, provider, deposit, expiry, status,
                    provisional, highestAmount, highestNonce, highestSignature, voucherCount, claimed, feesPaid,
                    refund, closeKind, e.finalAmount(), chargedTotal);
            case RequestSettled e -> new ChannelState(channelId, consumer, provider, deposit, expiry, status,
                    provisional, highestAmount, highestNonce, highestSignature, voucherCount, claimed, feesPaid,
                    refund, closeKind, authorizedCloseAmount, e.chargedTotal());
            default -> this;
        };
    }

    /** What the provider could still claim with the highest accepted voucher. */
    public BigInteger claimable() {
        return status == ChannelStatus.CLOSED ? BigInteger.ZERO : highestAmount.subtract(claimed).max(BigInteger.ZERO);
    }

    /** Deposit the provider gateway has not charged for served requests yet. */
    public BigInteger unchargedDeposit() {
        return deposit.subtract(chargedTotal);
    }

    /** Deposit not yet promised to the provider by any accepted voucher. */
    public BigInteger remaining() {
        return deposit.subtract(highestAmount.max(claimed));
    }

    private ChannelState withStatus(ChannelStatus newStatus, BigInteger newRefund, CloseKind newKind) {
        return new ChannelState(channelId, consumer, provider, deposit, expiry, newStatus, provisional, highestAmount,
                highestNonce, highestSignature, voucherCount, claimed, feesPaid, newRefund, newKind,
                authorizedCloseAmount, chargedTotal);
    }
}
