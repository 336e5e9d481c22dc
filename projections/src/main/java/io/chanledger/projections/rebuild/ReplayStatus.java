package io.chanledger.projections.rebuild;

import java.time.Instant;
import org.springframework.lang.Nullable;

/**
 * Where a replay of the channel read models stands. {@code processed} and {@code head} are global
 * event indexes: the processor's position and the newest stored event. {@code matches} is set once
 * both checksums exist and no channel event arrived between them (otherwise {@code comparable} is
 * false: the rebuilt model rightly includes the newer events).
 */
public record ReplayStatus(State state, @Nullable Instant startedAt, @Nullable Instant finishedAt,
                           @Nullable Long processed, @Nullable Long head, @Nullable Double eventsPerSecond,
                           @Nullable Snapshot before, @Nullable Snapshot after, @Nullable Boolean comparable,
                           @Nullable Boolean matches, @Nullable String error) {

    public enum State { IDLE, STOPPING, CHECKSUMMING, REPLAYING, VERIFYING, COMPLETED, FAILED }

    /** The read models' checksum with the position of the last event they include. */
    public record Snapshot(long position, ReadModelChecksum checksum) {
    }

    static ReplayStatus idle() {
        return new ReplayStatus(State.IDLE, null, null, null, null, null, null, null, null, null, null);
    }

    boolean running() {
        return state != State.IDLE && state != State.COMPLETED && state != State.FAILED;
    }

    ReplayStatus in(State newState) {
        return new ReplayStatus(newState, startedAt, finishedAt, processed, head, eventsPerSecond, before, after,
                comparable, matches, error);
    }

    ReplayStatus withProgress(Long newProcessed, Long newHead, Double rate) {
        return new ReplayStatus(state, startedAt, finishedAt, newProcessed, newHead, rate, before, after, comparable,
                matches, error);
    }

    ReplayStatus withBefore(Snapshot snapshot) {
        return new ReplayStatus(state, startedAt, finishedAt, processed, head, eventsPerSecond, snapshot, after,
                comparable, matches, error);
    }

    ReplayStatus finished(Instant at, Snapshot snapshot, boolean isComparable, Boolean isMatch) {
        return new ReplayStatus(State.COMPLETED, startedAt, at, processed, head, eventsPerSecond, before, snapshot,
                isComparable, isMatch, null);
    }

    ReplayStatus failed(Instant at, String reason) {
        return new ReplayStatus(State.FAILED, startedAt, at, processed, head, eventsPerSecond, before, after,
                comparable, matches, reason);
    }

    static ReplayStatus started(Instant at) {
        return new ReplayStatus(State.STOPPING, at, null, null, null, null, null, null, null, null, null);
    }
}
