package io.chanledger.api.eventstore;

import java.time.Duration;

/**
 * How the event store's reader serves the streaming processors: how many of the newest events it
 * keeps in memory for them and how long a batch lingers for the events committed right after its
 * first. The read models, which are what these streams feed, decide both
 * ({@code chan.read-models.cached-events} and {@code .batch-linger}); the store only applies them.
 */
public record EventReaderSettings(int cachedEvents, Duration batchLinger) {
}
