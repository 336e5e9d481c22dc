package io.chanledger.domain.channel;

import java.math.BigInteger;
import java.util.TreeSet;

/**
 * The close authorizations of a channel handed out on requests that did not prove they came from
 * the consumer, as far as the contract would still honour them: {@code cooperativeClose} refuses
 * a final amount below the claimed total, so a claim voids every authorization below it. One
 * rule, folded by the Channel aggregate and by the watchtower from the same events; and what
 * the aggregate admits while one is outstanding ({@link #checkAdmits}).
 */
public final class UnprovenCloses {

    private final TreeSet<BigInteger> amounts = new TreeSet<>();

    /** Folds a channel's events, oldest first; other events are passed over. */
    public static UnprovenCloses of(Iterable<?> events) {
        UnprovenCloses closes = new UnprovenCloses();
        for (Object event : events) {
            switch (event) {
                case CloseAuthorized e -> closes.authorized(e);
                case ChannelClaimed e -> closes.claimed(e.totalClaimed());
                default -> {
                }
            }
        }
        return closes;
    }

    void authorized(CloseAuthorized event) {
        if (!event.stopsPayments()) {
            amounts.add(event.finalAmount());
        }
    }

    void claimed(BigInteger totalClaimed) {
        amounts.headSet(totalClaimed).clear();
    }

    boolean contains(BigInteger amount) {
        return amounts.contains(amount);
    }

    /** The lowest such authorization still honoured on-chain, or null when there is none. */
    public BigInteger floor() {
        return amounts.isEmpty() ? null : amounts.first();
    }

    /**
     * After a close authorization the consumer did not prove to have asked for, anyone may hold a
     * signature the consumer could close with at that amount, however much it is charged later. The
     * channel goes on paying (a stranger must not stop it), but only one request may take the
     * charged total above the lowest such authorization the contract still honours: one is admitted
     * only while nothing is charged above it and no other request runs (a lapsed hold is dropped by
     * this voucher, and its request then charged nothing); above it, requests wait until the
     * provider's claim above it is recorded, which voids it on-chain. So a consumer closing at that
     * older amount takes at most one request unpaid, however long the claim takes. Throws the
     * rejection of a metered voucher of channel {@code channelId}, in state {@code state}, at
     * {@code now} when it must wait.
     */
    void checkAdmits(String channelId, ChannelState state, long now) {
        BigInteger floor = floor();
        if (floor == null) {
            return;
        }
        if (state.chargedTotal().compareTo(floor) > 0) {
            throw new VoucherRejectedException(VoucherRejection.CLAIM_PENDING, "channel " + channelId
                    + " is charged " + state.chargedTotal() + ", above a close authorization at " + floor
                    + " that anyone may have; requests wait until the provider's claim above it is on-chain");
        }
        if (state.heldAt(now).signum() > 0) {
            throw new VoucherRejectedException(VoucherRejection.CLAIM_PENDING, "a close authorization of channel "
                    + channelId + " at " + floor + " is outstanding, and requests are served one at a time until the provider's claim"
                    + " above it is on-chain; another request is running");
        }
    }
}
