package io.chanledger.api.readmodels;

import io.chanledger.projections.channel.ChannelEvents;
import io.chanledger.projections.readmodel.ReadModels;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventhandling.tokenstore.TokenStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
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

    private final ReadModelProgress progress;
    private final ReadModelChecksums checksums;
    private final BulkRebuild bulk;
    private final AtomicLong rebuilt = new AtomicLong();
    private final TokenStore tokenStore;
    private final TransactionManager transactions;
    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final AtomicReference<ReplayStatus> status = new AtomicReference<>(ReplayStatus.idle());

    ReadModelReplay(ReadModelProgress progress, ReadModelChecksums checksums, BulkRebuild bulk, TokenStore tokenStore,
                    TransactionManager transactions, DataSource dataSource, Clock clock) {
        this.progress = progress;
        this.checksums = checksums;
        this.bulk = bulk;
        this.tokenStore = tokenStore;
        this.transactions = transactions;
        this.jdbc = new JdbcTemplate(dataSource);
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
            processor.shutDown();
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
            processor.shutDown();
            long afterPosition = positionAtRest();
            ReplayStatus.Snapshot after = new ReplayStatus.Snapshot(afterPosition, checksums.compute());
            processor.start();
            boolean comparable = channelEventsBetween(position, afterPosition) == 0;
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

    private void awaitReplayed(StreamingEventProcessor processor, long position) {
        long target = position >= 0 ? position : progress.head();
        long deadline = System.nanoTime() + RESUME_TIMEOUT.toNanos();
        while (true) {
            OptionalLong now = progress.position();
            if (now.isPresent() && now.getAsLong() >= target && !progress.replaying()) {
                return;
            }
            if (!processor.isRunning()) {
                throw new IllegalStateException("the processor stopped during the replay");
            }
            if (now.isEmpty() && System.nanoTime() > deadline) {
                throw new IllegalStateException("the processor has not resumed its segments within " + RESUME_TIMEOUT
                        + "; is another instance holding them?");
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while replaying", e);
            }
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

    private long channelEventsBetween(long after, long upTo) {
        if (upTo <= after) {
            return 0;
        }
        String types = String.join(", ", ChannelEvents.TYPES.stream().map(t -> "'" + t.getName() + "'").toList());
        Long count = jdbc.queryForObject("SELECT COUNT(*) FROM domain_event_entry WHERE global_index > ?"
                + " AND global_index <= ? AND payload_type IN (" + types + ")", Long.class, after, upTo);
        return count == null ? 0 : count;
    }

    private void set(ReplayStatus next) {
        status.set(next);
    }
}
