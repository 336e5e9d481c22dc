package io.chanledger.domain.channel;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A channel's state folded from its events, in order: the one fold of {@link ChannelEvent}s that
 * the read model and reads straight from the event store share. The auditor does not use it: it
 * decodes the same sealed events and checks them with rules of its own, so that a fault of this
 * fold is not repeated in the audit. {@code chargedTotal}
 * is what the provider gateway charged for the requests it served, {@code holds} what its running
 * requests reserve, by voucher nonce (a hold that has lapsed by the time of a later voucher is
 * dropped: it no longer reserves anything), {@code returned} what the provider gave back to the
 * consumer of what the chain paid above the charged total ({@link ExcessReturned}).
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
        BigInteger chargedTotal,
        Map<BigInteger, Hold> holds,
        BigInteger returned) {

    /** What a running request reserves, until it is settled or {@code until} (epoch seconds) passes. */
    public record Hold(BigInteger amount, long until) {
    }

    public ChannelState {
        holds = Map.copyOf(holds);
    }

    /** Replays events of one channel, oldest first. Events that are not channel events are passed over. */
    public static ChannelState replay(Iterable<?> events) {
        ChannelState state = null;
        for (Object event : events) {
            if (event instanceof ChannelEvent channelEvent) {
                state = state == null ? opening(channelEvent) : state.apply(channelEvent);
            }
        }
        return state;
    }

    /** The state a channel's first event gives it. */
    public static ChannelState opening(ChannelEvent event) {
        if (!(event instanceof ChannelOpened opened)) {
            throw new IllegalArgumentException("a channel's history starts with ChannelOpened, not " + event);
        }
        return new ChannelState(opened.channelId(), opened.consumer(), opened.provider(), opened.deposit(),
                opened.expiry(), ChannelStatus.OPEN, opened.provisional(), BigInteger.ZERO, null, null, 0,
                BigInteger.ZERO, BigInteger.ZERO, null, null, null, BigInteger.ZERO, Map.of(), BigInteger.ZERO);
    }

    /** The state after {@code event}, any event of the channel after its opening. */
    public ChannelState apply(ChannelEvent event) {
        return switch (event) {
            case ChannelOpened e -> this;
            case ChannelOpenConfirmed e -> new ChannelState(channelId, e.consumer(), e.provider(), e.deposit(),
                    e.expiry(), status, false, highestAmount, highestNonce, highestSignature, voucherCount, claimed,
                    feesPaid, refund, closeKind, authorizedCloseAmount, chargedTotal, holds, returned);
            case VoucherAccepted e -> new ChannelState(channelId, consumer, provider, deposit, expiry, status,
                    provisional, e.amount(), e.nonce(), e.signature(), voucherCount + 1, claimed, feesPaid, refund,
                    closeKind, authorizedCloseAmount, chargedTotal, held(e), returned);
            case HoldRaised e -> withHolds(raised(e));
            case RequestSettled e -> new ChannelState(channelId, consumer, provider, deposit, expiry, status,
                    provisional, highestAmount, highestNonce, highestSignature, voucherCount, claimed, feesPaid,
                    refund, closeKind, authorizedCloseAmount, e.chargedTotal(), without(e.nonce()), returned);
            case ChannelClaimed e -> new ChannelState(channelId, consumer, provider, deposit, expiry, status,
                    provisional, highestAmount, highestNonce, highestSignature, voucherCount, e.totalClaimed(),
                    feesPaid.add(e.fee()), refund, closeKind, authorizedCloseAmount, chargedTotal, holds, returned);
            case ChannelExpired e -> withStatus(ChannelStatus.EXPIRED, refund, closeKind);
            case ChannelClosed e -> withStatus(ChannelStatus.CLOSED, e.refund(), e.kind());
            case ExcessReturned e -> new ChannelState(channelId, consumer, provider, deposit, expiry, status,
                    provisional, highestAmount, highestNonce, highestSignature, voucherCount, claimed, feesPaid,
                    refund, closeKind, authorizedCloseAmount, chargedTotal, holds, returned.add(e.amount()));
            case CloseAuthorized e -> new ChannelState(channelId, consumer, provider, deposit, expiry, status,
                    provisional, highestAmount, highestNonce, highestSignature, voucherCount, claimed, feesPaid,
                    refund, closeKind, e.finalAmount(), chargedTotal, holds, returned);
        };
    }

    /** What the provider could still claim with the highest accepted voucher; nothing once closed. */
    public BigInteger claimable() {
        return status == ChannelStatus.CLOSED ? BigInteger.ZERO : highestAmount.subtract(claimed).max(BigInteger.ZERO);
    }

    /**
     * What the chain paid the provider above what the gateway charged, not given back yet:
     * claimed − charged − returned, or zero. Meaningful for a channel the gateway charged
     * (metered); on a channel paid with plain vouchers every signed amount is earned.
     */
    public BigInteger excessClaimed() {
        return claimed.subtract(chargedTotal).subtract(returned).max(BigInteger.ZERO);
    }

    /** Deposit the provider gateway has not charged for served requests yet. */
    public BigInteger unchargedDeposit() {
        return deposit.subtract(chargedTotal);
    }

    /** Deposit not yet promised to the provider by any accepted voucher. */
    public BigInteger remaining() {
        return deposit.subtract(highestAmount.max(claimed));
    }

    /** {@link #remaining()}, and nothing once closed. */
    public BigInteger refundable() {
        return status == ChannelStatus.CLOSED ? BigInteger.ZERO : remaining();
    }

    /** What running requests hold at {@code nowEpochSeconds}: the holds not settled and not lapsed. */
    public BigInteger heldAt(long nowEpochSeconds) {
        return heldAt(nowEpochSeconds, null);
    }

    /** {@link #heldAt(long)}, leaving out the request of voucher {@code exceptNonce} (null: none). */
    public BigInteger heldAt(long nowEpochSeconds, BigInteger exceptNonce) {
        BigInteger held = BigInteger.ZERO;
        for (var entry : holds.entrySet()) {
            if (entry.getValue().until() > nowEpochSeconds && !entry.getKey().equals(exceptNonce)) {
                held = held.add(entry.getValue().amount());
            }
        }
        return held;
    }

    /**
     * Money the provider may lose: something is claimable and the consumer may close (expiry
     * passed) or will be able to within {@code windowSeconds} of {@code nowEpochSeconds}.
     */
    public boolean atRisk(long nowEpochSeconds, long windowSeconds) {
        return claimable().signum() > 0 && expiry <= nowEpochSeconds + windowSeconds;
    }

    /** The holds once voucher {@code e} is accepted: its own added, those lapsed by then dropped. */
    private Map<BigInteger, Hold> held(VoucherAccepted e) {
        if (holds.isEmpty() && !e.metered()) {
            return holds;
        }
        Map<BigInteger, Hold> next = new LinkedHashMap<>();
        holds.forEach((nonce, hold) -> {
            if (hold.until() > e.acceptedAt()) {
                next.put(nonce, hold);
            }
        });
        if (e.metered()) {
            next.put(e.nonce(), new Hold(e.hold(), e.holdUntil() == null ? 0 : e.holdUntil()));
        }
        return next;
    }

    private Map<BigInteger, Hold> raised(HoldRaised e) {
        Map<BigInteger, Hold> next = new LinkedHashMap<>(holds);
        next.computeIfPresent(e.nonce(), (nonce, hold) -> new Hold(e.hold(), hold.until()));
        return next;
    }

    private Map<BigInteger, Hold> without(BigInteger nonce) {
        Map<BigInteger, Hold> next = new LinkedHashMap<>(holds);
        next.remove(nonce);
        return next;
    }

    private ChannelState withHolds(Map<BigInteger, Hold> newHolds) {
        return new ChannelState(channelId, consumer, provider, deposit, expiry, status, provisional, highestAmount,
                highestNonce, highestSignature, voucherCount, claimed, feesPaid, refund, closeKind,
                authorizedCloseAmount, chargedTotal, newHolds, returned);
    }

    private ChannelState withStatus(ChannelStatus newStatus, BigInteger newRefund, CloseKind newKind) {
        return new ChannelState(channelId, consumer, provider, deposit, expiry, newStatus, provisional, highestAmount,
                highestNonce, highestSignature, voucherCount, claimed, feesPaid, newRefund, newKind,
                authorizedCloseAmount, chargedTotal, holds, returned);
    }
}
