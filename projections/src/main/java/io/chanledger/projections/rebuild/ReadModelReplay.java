package io.chanledger.projections.rebuild;

import io.chanledger.projections.readmodel.ReadModels;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.EventTrackerStatus;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventhandling.tokenstore.TokenStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Rebuilds the channel read models from the event store and proves the rebuild: stop the
 * processor, checksum the models, reset its tokens (its reset handlers empty the tables), rebuild
 * them from the whole event stream ({@link BulkRebuild}), hand the processor the token of the
 * last event applied, start it, wait until it is at least where it was, stop it
 * again, checksum, start it. The two checksums must be equal unless channel events arrived
 * meanwhile. Runs on this instance, which must be able to claim every segment: other instances
 * keep serving reads, from a model that is briefly partial.
 */
@Service
public class ReadModelReplay {

    private static final Logger log = LoggerFactory.getLogger(ReadModelReplay.class);
    private static final Duration POLL = Duration.ofMillis(100);
    /** How long a restarted processor may take to claim its segments again. */
    private static final Duration RESUME_TIMEOUT = Duration.ofMinutes(2);
    /** How long a started processor may take to have its workers running before it is stopped all the same. */
    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration SETTLE_POLL = Duration.ofMillis(10);

    private final ReadModelProgress progress;
    private final ReadModelChecksums checksums;
    private final BulkRebuild bulk;
    private final AtomicLong rebuilt = new AtomicLong();
    private final TokenStore tokenStore;
    private final TransactionManager transactions;
    private final EventTable table;
    private final Clock clock;
    private final AtomicReference<ReplayStatus> status = new AtomicReference<>(ReplayStatus.idle());

    ReadModelReplay(ReadModelProgress progress, ReadModelChecksums checksums, BulkRebuild bulk, TokenStore tokenStore,
                    TransactionManager transactions, EventTable table, Clock clock) {
        this.progress = progress;
        this.checksums = checksums;
        this.bulk = bulk;
        this.tokenStore = tokenStore;
        this.transactions = transactions;
        this.table = table;
        this.clock = clock;
    }

    /** Starts a replay in the background; empty when one is running already. */
    public synchronized Optional<ReplayStatus> start() {
        if (status.get().running()) {
            return Optional.empty();
        }
        status.set(ReplayStatus.started(clock.instant()));
        // a platform thread: the rebuild folds on it, CPU-bound for as long as the event store takes to read
        Thread.ofPlatform().name("read-model-replay").start(this::run);
        return Optional.of(status.get());
    }

    /** The current or last replay, with live progress while it runs. */
    public ReplayStatus status() {
        ReplayStatus current = status.get();
        if (current.state() != ReplayStatus.State.REPLAYING) {
            return current;
        }
        long processed = rebuilt.get();
        double seconds = Math.max(0.001, Duration.between(current.startedAt(), clock.instant()).toMillis() / 1000.0);
        return current.withProgress(processed, progress.head(), processed / seconds);
    }

    private void run() {
        StreamingEventProcessor processor = progress.processor();
        try {
            stop(processor);
            long position = positionAtRest();
            set(status.get().in(ReplayStatus.State.CHECKSUMMING));
            ReplayStatus.Snapshot before = new ReplayStatus.Snapshot(position, checksums.compute());
            log.info("Read models before replay, at event {}: {}", position, before.checksum());
            set(status.get().withBefore(before).in(ReplayStatus.State.REPLAYING));
            Instant replayStart = clock.instant();
            rebuilt.set(0);
            processor.resetTokens();
            progress.rebuilding(true);
            try {
                TrackingToken reached = bulk.rebuild(rebuilt);
                if (reached != null) {
                    handOver(reached);
                }
            } finally {
                progress.rebuilding(false);
            }
            double seconds = Math.max(0.001, Duration.between(replayStart, clock.instant()).toMillis() / 1000.0);
            set(status.get().withProgress(rebuilt.get(), progress.head(), rebuilt.get() / seconds));
            processor.start();
            awaitReplayed(processor, position);
            set(status.get().in(ReplayStatus.State.VERIFYING));
            stop(processor);
            long afterPosition = positionAtRest();
            ReplayStatus.Snapshot after = new ReplayStatus.Snapshot(afterPosition, checksums.compute());
            processor.start();
            boolean comparable = table.channelEventsBetween(position, afterPosition) == 0;
            Boolean matches = comparable ? before.checksum().equals(after.checksum()) : null;
            log.info("Read models after replay, at event {}: {} — {}", afterPosition, after.checksum(),
                    !comparable ? "not comparable: channel events arrived during the replay"
                            : matches ? "checksums match" : "CHECKSUMS DIFFER");
            set(status.get().finished(clock.instant(), after, comparable, matches));
        } catch (RuntimeException e) {
            log.error("Replay of the read models failed", e);
            set(status.get().failed(clock.instant(), e.getMessage()));
            if (!processor.isRunning()) {
                processor.start();
            }
        }
    }

    /** Waits until the restarted processor's workers run and have applied every event up to {@code position}. */
    private void awaitReplayed(StreamingEventProcessor processor, long position) {
        // an empty store has no position to reach: running workers are all there is to wait for
        long target = position >= 0 ? position : progress.head();
        long deadline = System.nanoTime() + RESUME_TIMEOUT.toNanos();
        Map<Integer, OptionalLong> firstSeen = new HashMap<>();
        while (true) {
            OptionalLong now = progress.position();
            boolean running = workersRun(processor, firstSeen);
            if (running && (target <= 0 || now.isPresent() && now.getAsLong() >= target) && !progress.replaying()) {
                return;
            }
            if (!processor.isRunning()) {
                throw new IllegalStateException("the processor stopped during the replay");
            }
            if (!running && System.nanoTime() > deadline) {
                throw new IllegalStateException("the processor has not resumed its segments within " + RESUME_TIMEOUT
                        + "; is another instance holding them?");
            }
            pause(POLL);
        }
    }

    /**
     * Stops the processor once its workers run. Axon 4.13's tracking processor gives the last
     * segment it claims to the claiming thread itself; stopped between that claim and the
     * worker's start, it drops the worker without giving the thread back, and claims no segment
     * ever again: a replay begun right after the service started, or right after another replay,
     * left the read models standing still. Bounded, since a processor whose segments another
     * instance holds claims nothing (and can be stopped safely).
     */
    private void stop(StreamingEventProcessor processor) {
        long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
        Map<Integer, OptionalLong> firstSeen = new HashMap<>();
        while (processor.isRunning() && !workersRun(processor, firstSeen) && System.nanoTime() < deadline) {
            pause(SETTLE_POLL);
        }
        processor.shutDown();
    }

    /**
     * Whether a worker runs for each segment the processor can hold: one that reports being
     * caught up, or whose position moved since {@code firstSeen} (the first call's positions),
     * has left the claiming thread behind.
     */
    private boolean workersRun(StreamingEventProcessor processor, Map<Integer, OptionalLong> firstSeen) {
        Map<Integer, EventTrackerStatus> statuses = processor.processingStatus();
        int segments = transactions.fetchInTransaction(() -> tokenStore.fetchSegments(processor.getName())).length;
        if (statuses.isEmpty() || statuses.size() < Math.min(processor.maxCapacity(), segments)) {
            return false;
        }
        for (Map.Entry<Integer, EventTrackerStatus> segment : statuses.entrySet()) {
            EventTrackerStatus status = segment.getValue();
            OptionalLong first = firstSeen.computeIfAbsent(segment.getKey(), id -> status.getCurrentPosition());
            if (!status.isCaughtUp() && !status.isErrorState() && status.getCurrentPosition().equals(first)) {
                return false;
            }
        }
        return true;
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while replaying", e);
        }
    }

    /** Every segment of the stopped processor continues after the last event the bulk rebuild applied. */
    private void handOver(TrackingToken reached) {
        String name = ReadModels.CHANNEL_PROCESSING_GROUP;
        transactions.executeInTransaction(() -> {
            for (int segment : tokenStore.fetchSegments(name)) {
                tokenStore.storeToken(reached, name, segment);
            }
        });
    }

    /** The lowest position among the stopped processor's segments: every event up to it is in the model. */
    private long positionAtRest() {
        String name = ReadModels.CHANNEL_PROCESSING_GROUP;
        return transactions.fetchInTransaction(() -> {
            long lowest = Long.MAX_VALUE;
            int[] segments = tokenStore.fetchSegments(name);
            for (int segment : segments) {
                TrackingToken token = tokenStore.fetchToken(name, segment);
                tokenStore.releaseClaim(name, segment);
                long at = token == null ? -1 : token.position().orElse(-1);
                lowest = Math.min(lowest, at);
            }
            return segments.length == 0 ? -1 : lowest;
        });
    }

    private void set(ReplayStatus next) {
        status.set(next);
    }
}
