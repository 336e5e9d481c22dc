package io.chanledger.api.provider.gateway;

import io.chanledger.api.ledger.channels.command.ChannelCommits;
import io.chanledger.domain.channel.SettleRequest;
import jakarta.annotation.PreDestroy;
import java.math.BigInteger;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Releases the holds of requests that no process is serving any more, and drops kept answers past
 * their retention. A request's hold is released by its settlement; a process that dies between
 * the two (a crash, a kill) leaves the hold on its channel, and the channel's read model shows it
 * as {@code held}. So each gateway instance records itself in {@code gateway_instance} (its start,
 * and a heartbeat), and at start-up and every {@link #INTERVAL} after, settles at zero, through the
 * Channel aggregate (a recorded {@code RequestSettled} charging nothing), every open hold of its
 * provider's channels that either has lapsed ({@code hold-ttl}) or was taken before every live
 * instance started: requests do not survive their process, so none of those is running anywhere.
 * Holds of requests that may still be running on another live instance are left to it, or to their
 * lapse. The time a hold was taken is its lapse less {@code hold-ttl}: instances on one database
 * share that setting.
 */
final class HeldRequestRelease {

    static final Duration INTERVAL = Duration.ofSeconds(30);
    /** An instance not seen for this long is gone (three missed heartbeats). */
    static final Duration LIVE_WINDOW = INTERVAL.multipliedBy(3);
    /** Tolerance for clocks of instances that are not quite in step. */
    static final Duration CLOCK_MARGIN = Duration.ofSeconds(2);

    private static final Logger log = LoggerFactory.getLogger(HeldRequestRelease.class);

    /** An open hold as the channel read model shows it. */
    record OpenHold(String channelId, BigInteger nonce, BigInteger amount, long until) {
    }

    private final JdbcTemplate jdbc;
    private final ChannelCommits commits;
    private final Metering metering;
    private final PaidAnswers answers;
    private final Clock clock;
    private final Duration holdTtl;
    private final String provider;
    private final Instant startedAt;
    private String instanceId = UUID.randomUUID().toString();
    private ScheduledExecutorService rounds;

    HeldRequestRelease(JdbcTemplate jdbc, ChannelCommits commits, Metering metering, PaidAnswers answers,
                       Clock clock, Duration holdTtl, String provider) {
        this.jdbc = jdbc;
        this.commits = commits;
        this.metering = metering;
        this.answers = answers;
        this.clock = clock;
        this.holdTtl = holdTtl;
        this.provider = provider;
        this.startedAt = clock.instant();
    }

    /**
     * Records this instance as {@code id} and runs the first round now, the next ones every
     * {@link #INTERVAL}. {@code id} names the process's place (host and port): a process started
     * again in the place of one that was killed replaces its row at once, so the holds that one
     * left are released now rather than once its heartbeat is {@link #LIVE_WINDOW} old.
     */
    synchronized void start(String id) {
        if (rounds != null) {
            return;
        }
        instanceId = id;
        Timestamp now = Timestamp.from(clock.instant());
        jdbc.update("DELETE FROM gateway_instance WHERE instance_id = ?", instanceId);
        jdbc.update("INSERT INTO gateway_instance (instance_id, started_at, seen_at) VALUES (?, ?, ?)", instanceId,
                Timestamp.from(startedAt), now);
        rounds = Executors.newSingleThreadScheduledExecutor(task -> Thread.ofPlatform().daemon()
                .name("gateway-hold-release").unstarted(task));
        rounds.scheduleWithFixedDelay(this::roundQuietly, 0, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    synchronized void stop() {
        if (rounds == null) {
            return;
        }
        rounds.shutdownNow();
        rounds = null;
        try {
            jdbc.update("DELETE FROM gateway_instance WHERE instance_id = ?", instanceId);
        } catch (RuntimeException e) {
            log.debug("could not remove gateway instance {}: {}", instanceId, e.toString());
        }
    }

    private void roundQuietly() {
        try {
            round();
        } catch (RuntimeException e) {
            log.warn("releasing the holds of requests no instance serves failed; trying again in {}: {}", INTERVAL,
                    e.toString());
        }
    }

    /** One round: heartbeat, forget instances long gone, prune kept answers, release the holds left behind. */
    void round() {
        Instant now = clock.instant();
        jdbc.update("UPDATE gateway_instance SET seen_at = ? WHERE instance_id = ?", Timestamp.from(now), instanceId);
        jdbc.update("DELETE FROM gateway_instance WHERE seen_at < ?", Timestamp.from(now.minus(Duration.ofDays(1))));
        answers.prune();
        Timestamp oldestLive = jdbc.queryForObject("SELECT MIN(started_at) FROM gateway_instance WHERE seen_at > ?",
                Timestamp.class, Timestamp.from(now.minus(LIVE_WINDOW)));
        Instant everyLiveStarted = oldestLive == null ? startedAt : oldestLive.toInstant();
        release(now, everyLiveStarted);
    }

    /**
     * Settles at zero the open holds of this provider's channels that lapsed by {@code now} or were
     * taken before {@code everyLiveStarted} (less the clock margin), leaving those of requests this
     * instance is serving. Answers how many it released.
     */
    int release(Instant now, Instant everyLiveStarted) {
        long takenBefore = everyLiveStarted.minus(CLOCK_MARGIN).getEpochSecond();
        int released = 0;
        for (OpenHold hold : openHolds()) {
            boolean lapsed = hold.until() <= now.getEpochSecond();
            boolean orphaned = hold.until() - holdTtl.toSeconds() < takenBefore;
            if (!(lapsed || orphaned) || metering.running(hold.channelId(), hold.nonce())) {
                continue;
            }
            if (commits.settle(new SettleRequest(hold.channelId(), hold.nonce(), BigInteger.ZERO,
                    clock.instant().getEpochSecond())).settled()) {
                released++;
                log.info("released the hold of {} on channel {} (voucher {}): its request {}", hold.amount(),
                        hold.channelId(), hold.nonce(), lapsed ? "outlived hold-ttl" : "died with its process");
            }
        }
        return released;
    }

    /** The open holds of this provider's channels, as the channel read model has folded them. */
    List<OpenHold> openHolds() {
        List<OpenHold> holds = new ArrayList<>();
        jdbc.query("SELECT channel_id, holds FROM channel_balance WHERE provider = ? AND holds <> ''", row -> {
            String channelId = row.getString(1);
            for (String entry : row.getString(2).split(";")) {
                String[] parts = entry.split(":");
                if (parts.length == 3) {
                    holds.add(new OpenHold(channelId, new BigInteger(parts[0]), new BigInteger(parts[1]),
                            Long.parseLong(parts[2])));
                }
            }
        }, provider);
        return holds;
    }
}
