package io.chanledger.chain.ingest;

/** A change to the listener's table of open channels' expiries, made in the batch's transaction. */
public sealed interface ExpiryChange {

    String channelId();

    /** A channel opened: watch for its expiry. */
    record Track(String channelId, long expiry) implements ExpiryChange {
    }

    /** The channel expired or closed: nothing left to watch. */
    record Untrack(String channelId) implements ExpiryChange {
    }
}
