package io.chanledger.api.provider.watchtower;

import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.api.provider.watchtower.ClaimStore.Claim;
import io.chanledger.api.provider.watchtower.ClaimStore.Status;
import io.chanledger.chain.rpc.BlockHeader;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.RpcException;
import io.chanledger.domain.chain.ChainRef;
import io.chanledger.domain.channel.ChannelOpenConfirmed;
import io.chanledger.domain.channel.ChannelOpened;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.domain.channel.UnprovenCloses;
import io.chanledger.domain.channel.VoucherAccepted;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.axonframework.eventhandling.DomainEventMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Claims the provider's channels on-chain, from current state, on a timer of its own: it is no
 * event handler, so replaying the event store can never send a transaction. Each round reads the
 * chain's latest block time, confirms mined claims the chain listener has recorded since, then
 * walks the provider's channels with something claimable (from the channel read model, soonest
 * expiry first), reads each due one's events and lets the {@link ClaimPlanner} and the
 * {@link ClaimExecutor} act on it. Channels under a close authorization that the consumer did not
 * prove to have asked for ({@link CloseWatch}) are visited every round, whatever their figures,
 * and at once when the gateway of this process charges one past that authorization
 * ({@link #guardSoon}). A channel's margin before expiry depends on its life, which starts at
 * the time of its open block ({@link ExpiryMargin}).
 * Last, channels that can be charged no more (expired or closed) and were paid more on-chain than
 * they were charged get the excess back ({@link ReturnExecutor}). A round does nothing while the
 * ledger's view of the chain is behind the head it read ({@link ChainViewCheck}): nothing is
 * planned from a view known to be stale.
 * Run it on one instance per provider key: the account's nonce
 * is managed in this process.
 */
public final class Watchtower implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Watchtower.class);
    private static final int PAGE = 500;

    record Candidate(String channelId, long expiry, BigInteger highestAmount, BigInteger claimed) {
    }

    /** A channel's claim after a visit, if any, and whether its expiry is within its margin. */
    private record Visit(Optional<Claim> claim, boolean nearExpiry) {
    }

    private final ClaimExecutor executor;
    private final ClaimPlanner planner;
    private final ReturnExecutor returns;
    private final BigInteger minReturn;
    /** Ended channels the gateway never charged: every amount their consumer signed was earned, nothing to give back. */
    private final Set<String> unmetered = new HashSet<>();
    private final ChannelHistory history;
    private final ClaimStore store;
    private final CloseWatch closeWatch;
    private final JdbcTemplate jdbc;
    private final EthApi eth;
    private final Clock clock;
    private final WatchtowerMetrics metrics;
    private final ChainViewCheck view;
    /** Whether the rounds are waiting for the listener, so that waiting and resuming are logged once each. */
    private boolean waiting;
    private volatile ScheduledExecutorService timer;
    /** Channel and claim status pairs already logged as at risk: each is logged once, the gauge counts them all. */
    private final Set<String> reportedAtRisk = new HashSet<>();
    /** The chain time of each visited channel's open block, read once; dropped with the channel's last visit. */
    private final Map<String, Long> openedAt = new HashMap<>();

    Watchtower(ClaimExecutor executor, ClaimPlanner planner, ReturnExecutor returns, BigInteger minReturn,
               ChannelHistory history, ClaimStore store, CloseWatch closeWatch, JdbcTemplate jdbc, EthApi eth,
               Clock clock, WatchtowerMetrics metrics, ChainViewCheck view) {
        this.executor = executor;
        this.planner = planner;
        this.returns = returns;
        this.minReturn = minReturn;
        this.history = history;
        this.store = store;
        this.closeWatch = closeWatch;
        this.jdbc = jdbc;
        this.eth = eth;
        this.clock = clock;
        this.metrics = metrics;
        this.view = view;
    }

    synchronized void start(Duration interval) {
        if (timer != null) {
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "gateway-watchtower");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(this::runSafely, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        log.info("watchtower claiming for {} every {}", executor.provider(), interval);
    }

    private void runSafely() {
        try {
            runOnce();
        } catch (RuntimeException e) {
            log.warn("watchtower round failed: {}", e.toString());
        }
    }

    /** One round. Public to the package so tests can drive it without waiting for the timer. */
    public synchronized void runOnce() {
        BlockHeader head;
        try {
            head = eth.block("latest")
                    .orElseThrow(() -> RpcException.transientFailure("eth_getBlockByNumber", "no latest block", null));
        } catch (RpcException e) {
            log.warn("watchtower cannot read the chain's time, skipping this round: {}", e.getMessage());
            return;
        }
        if (waitsForTheListener(head)) {
            return;
        }
        long chainTime = head.timestamp();
        confirmMined();
        long atRisk = 0;
        Set<String> visited = new HashSet<>();
        for (Candidate candidate : candidates()) {
            if (!planner.mayBeDue(candidate.expiry(), candidate.highestAmount(), candidate.claimed(), chainTime)) {
                continue;
            }
            visited.add(candidate.channelId());
            try {
                Visit visit = visit(candidate.channelId(), chainTime);
                Optional<Claim> claim = visit.claim();
                if (visit.nearExpiry() && claim.map(c -> c.status() != Status.CONFIRMED).orElse(false)) {
                    atRisk++;
                    if (reportedAtRisk.add(candidate.channelId() + "/" + claim.get().status())) {
                        log.warn("channel {} expires at {} (chain time {}); its claim of {} is {}",
                                candidate.channelId(), candidate.expiry(), chainTime, claim.get().amount(),
                                claim.get().status());
                    }
                }
            } catch (RuntimeException e) {
                log.warn("watchtower could not handle channel {}: {}", candidate.channelId(), e.toString());
            }
        }
        for (String channelId : closeWatch.channels(executor.provider())) {
            visited.add(channelId);
            guardSafely(channelId, chainTime);
        }
        openedAt.keySet().retainAll(visited);
        for (String channelId : owingReturns()) {
            try {
                returnExcess(channelId);
            } catch (RuntimeException e) {
                log.warn("watchtower could not return the excess claimed on channel {}: {}", channelId, e.toString());
            }
        }
        metrics.atRisk(atRisk);
        metrics.failedClaims(store.count(executor.provider(), Status.FAILED));
    }

    /** True while the ledger's view of the chain is behind {@code head}; waiting and resuming are logged once each. */
    private boolean waitsForTheListener(BlockHeader head) {
        Optional<String> behind = view.behind(head);
        if (behind.isPresent()) {
            metrics.waitedForTheListener();
            if (!waiting) {
                waiting = true;
                log.warn("watchtower waits for the chain listener: {}; it plans no claim and no return until the"
                        + " ledger has caught up", behind.get());
            }
            return true;
        }
        if (waiting) {
            waiting = false;
            log.info("watchtower resumes: the ledger's view of the chain has caught up with block {}", head.number());
        }
        return false;
    }

    /**
     * Ended channels paid more on-chain than they were charged, as the read model shows them, and
     * those with a return under way. Waits while a claim of the channel is in flight, so that the
     * excess is returned in one transfer.
     */
    private List<String> owingReturns() {
        return jdbc.queryForList("SELECT channel_id FROM channel_balance WHERE provider = ? AND status <> 'open'"
                + " AND claimed > charged_total + returned UNION SELECT channel_id FROM gateway_excess_return"
                + " WHERE provider = ? AND status <> 'CONFIRMED'", String.class, executor.provider(),
                executor.provider());
    }

    private void returnExcess(String channelId) {
        if (unmetered.contains(channelId) || store.ofChannel(channelId).stream()
                .anyMatch(c -> c.status() == Status.SENT || c.status() == Status.MINED)) {
            return;
        }
        List<Object> payloads = history.events(channelId).stream().<Object>map(DomainEventMessage::getPayload).toList();
        ChannelState state = ChannelState.replay(payloads);
        if (state == null || state.status() == ChannelStatus.OPEN) {
            return;
        }
        if (payloads.stream().noneMatch(p -> p instanceof VoucherAccepted v && v.metered())) {
            unmetered.add(channelId);
            return;
        }
        returns.step(state, minReturn);
    }

    private Visit visit(String channelId, long chainTime) {
        List<Object> payloads = history.events(channelId).stream().<Object>map(DomainEventMessage::getPayload).toList();
        if (payloads.isEmpty()) {
            return new Visit(Optional.empty(), false);
        }
        ChannelState state = ChannelState.replay(payloads);
        List<VoucherAccepted> vouchers = payloads.stream().filter(VoucherAccepted.class::isInstance)
                .map(VoucherAccepted.class::cast).toList();
        Long opened = openedAt(channelId, payloads);
        Optional<Claim> claim = planner.plan(state, vouchers, UnprovenCloses.of(payloads).floor(), opened, chainTime)
                .map(executor::step);
        return new Visit(claim, planner.nearExpiry(state.expiry(), opened, chainTime));
    }

    /**
     * The chain time of the channel's open block, from the chain ref of its open log (recorded
     * with its opening, or with its confirmation when a voucher opened it first); null while no
     * log is recorded or the node does not know the block (the margin is then the shortest,
     * {@link ExpiryMargin#seconds}).
     */
    private Long openedAt(String channelId, List<Object> payloads) {
        Long known = openedAt.get(channelId);
        if (known != null) {
            return known;
        }
        Optional<ChainRef> openLog = payloads.stream().map(p -> switch (p) {
            case ChannelOpened e -> e.chainRef();
            case ChannelOpenConfirmed e -> e.chainRef();
            default -> null;
        }).filter(Objects::nonNull).findFirst();
        try {
            Optional<Long> time = openLog.flatMap(ref -> eth.block(ref.blockNumber())).map(BlockHeader::timestamp);
            time.ifPresent(t -> openedAt.put(channelId, t));
            return time.orElse(null);
        } catch (RpcException e) {
            log.warn("watchtower cannot read the open block of channel {}; its margin is the shortest this round: {}",
                    channelId, e.getMessage());
            return null;
        }
    }

    /**
     * Asks for a visit of a channel under close watch as soon as the watchtower's thread is free:
     * the gateway of this process charged it past a close authorization the consumer did not prove
     * to have asked for, and serves it nothing more until the claim above it is recorded. A
     * watchtower that is not running (another instance claims) visits it on its own next round.
     */
    public void guardSoon(String channelId) {
        ScheduledExecutorService running = timer;
        if (running == null) {
            return;
        }
        try {
            running.execute(() -> guardNow(channelId));
        } catch (RejectedExecutionException stopped) {
            // the watchtower is stopping: the next start visits the channel on its first round
        }
    }

    private synchronized void guardNow(String channelId) {
        try {
            eth.block("latest").map(BlockHeader::timestamp).ifPresent(chainTime -> guardSafely(channelId, chainTime));
        } catch (RpcException e) {
            log.warn("watchtower cannot read the chain's time to guard channel {}; its next round will: {}",
                    channelId, e.getMessage());
        }
    }

    private void guardSafely(String channelId, long chainTime) {
        try {
            guardClose(channelId, chainTime);
        } catch (RuntimeException e) {
            log.warn("watchtower could not guard the close of channel {}: {}", channelId, e.toString());
        }
    }

    /** Claims a watched channel above its close authorization once it is charged past it; forgets it when done. */
    private void guardClose(String channelId, long chainTime) {
        List<Object> payloads = history.events(channelId).stream().<Object>map(DomainEventMessage::getPayload).toList();
        if (payloads.isEmpty()) {
            return;
        }
        ChannelState state = ChannelState.replay(payloads);
        if (state.status() == ChannelStatus.CLOSED || UnprovenCloses.of(payloads).floor() == null) {
            closeWatch.forget(channelId);
            return;
        }
        visit(channelId, chainTime);
    }

    private void confirmMined() {
        for (Claim claim : store.withStatus(executor.provider(), Status.MINED)) {
            Optional<ChannelState> state = history.state(claim.channelId());
            if (state.isPresent() && state.get().claimed().compareTo(claim.amount()) >= 0) {
                store.update(claim.with(Status.CONFIRMED, clock.instant(), claim.txHash(), null), clock.instant());
                metrics.claim("confirmed");
                log.info("claim of {} on channel {} confirmed by the ledger", claim.amount(), claim.channelId());
            }
        }
    }

    /** The provider's channels with something claimable, from the channel read model, soonest expiry first. */
    private List<Candidate> candidates() {
        List<Candidate> all = new ArrayList<>();
        Candidate last = null;
        while (true) {
            List<Candidate> page = last == null
                    ? jdbc.query("SELECT channel_id, expiry, highest_amount, claimed FROM channel_balance"
                            + " WHERE provider = ? AND status <> 'closed' AND claimable > 0"
                            + " ORDER BY expiry, channel_id LIMIT ?", (r, n) -> candidate(r), executor.provider(), PAGE)
                    : jdbc.query("SELECT channel_id, expiry, highest_amount, claimed FROM channel_balance"
                            + " WHERE provider = ? AND status <> 'closed' AND claimable > 0"
                            + " AND (expiry > ? OR (expiry = ? AND channel_id > ?))"
                            + " ORDER BY expiry, channel_id LIMIT ?", (r, n) -> candidate(r), executor.provider(),
                            last.expiry(), last.expiry(), last.channelId(), PAGE);
            all.addAll(page);
            if (page.size() < PAGE) {
                return all;
            }
            last = page.getLast();
        }
    }

    private static Candidate candidate(ResultSet r) throws SQLException {
        return new Candidate(r.getString("channel_id"), r.getLong("expiry"), uint(r.getBigDecimal("highest_amount")),
                uint(r.getBigDecimal("claimed")));
    }

    private static BigInteger uint(BigDecimal value) {
        return value == null ? BigInteger.ZERO : value.toBigIntegerExact();
    }

    @Override
    public void close() {
        ScheduledExecutorService running = timer;
        if (running != null) {
            running.shutdownNow();
        }
    }
}
