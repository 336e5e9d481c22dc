package io.chanledger.domain.x402;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * An event of an x402 payment, a one-off EIP-3009 transfer the provider settled itself: the one
 * list of them. Each payment is its own stream, named by {@link #paymentId(String, String)}, so
 * the event store's unique (stream, sequence) makes a payment's first event one row however often
 * and on however many instances it is appended.
 */
public sealed interface X402Event permits X402PaymentSettled, X402PaymentConfirmed {

    /** Every x402 event type, in the order they are declared above. */
    List<Class<? extends X402Event>> TYPES = Arrays.stream(X402Event.class.getPermittedSubclasses())
            .<Class<? extends X402Event>>map(type -> type.asSubclass(X402Event.class))
            .toList();

    /** The stream of the payment authorized by {@code payer} with EIP-3009 nonce {@code nonce}. */
    static String paymentId(String payer, String nonce) {
        return "x402:" + payer.toLowerCase(Locale.ROOT) + ":" + nonce.toLowerCase(Locale.ROOT);
    }

    String payer();

    String nonce();

    /** The stream this event belongs to: its aggregate identifier. */
    default String paymentId() {
        return paymentId(payer(), nonce());
    }
}
