package io.chanledger.domain.channel;

import java.math.BigInteger;
import java.util.TreeSet;

/**
 * The close authorizations of a channel handed out on requests that did not prove they came from
 * the consumer, as far as the contract would still honour them: {@code cooperativeClose} refuses
 * a final amount below the claimed total, so a claim voids every authorization below it. One
 * rule, folded by the Channel aggregate and by the watchtower from the same events.
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
}
