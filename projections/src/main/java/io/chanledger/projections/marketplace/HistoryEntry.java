package io.chanledger.projections.marketplace;

import java.time.Instant;

/**
 * One line of a provider's status history: {@code kind} is registered, approved, suspended,
 * score_updated, models_published, online or offline; {@code sequence} is the event's place in the
 * provider's stream, which also keeps replays from writing a line twice.
 */
public record HistoryEntry(long sequence, Instant at, String kind, String detail) {
}
