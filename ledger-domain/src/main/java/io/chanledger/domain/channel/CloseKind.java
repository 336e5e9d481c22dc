package io.chanledger.domain.channel;

/** How a channel ended on-chain. */
public enum CloseKind {
    /** {@code cooperativeClose} with the provider's close authorization, at any time. */
    COOPERATIVE,
    /** {@code close} by the consumer once the expiry had passed. */
    AFTER_EXPIRY
}
