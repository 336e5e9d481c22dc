package io.chanledger.api.watchtower;

import io.chanledger.api.channels.command.ChannelHistory;
import io.chanledger.api.watchtower.ClaimStore.Claim;
import io.chanledger.api.watchtower.ClaimStore.Status;
import io.chanledger.chain.rpc.BlockHeader;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.RpcException;
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
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
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
 * prove to have asked for ({@link CloseWatch}) are visited every round, whatever their figures.
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
        for (Candidate candidate : candidates()) {
            if (!planner.mayBeDue(candidate.expiry(), candidate.highestAmount(), candidate.claimed(), chainTime)) {
                continue;
            }
            try {
                Optional<Claim> claim = visit(candidate.channelId(), chainTime);
                if (planner.nearExpiry(candidate.expiry(), chainTime)
                        && claim.map(c -> c.status() != Status.CONFIRMED).orElse(false)) {
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
            try {
                guardClose(channelId, chainTime);
            } catch (RuntimeException e) {
                log.warn("watchtower could not guard the close of channel {}: {}", channelId, e.toString());
            }
        }
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

    private Optional<Claim> visit(String channelId, long chainTime) {
        List<DomainEventMessage<?>> events = history.events(channelId);
        if (events.isEmpty()) {
            return Optional.empty();
        }
        List<Object> payloads = events.stream().<Object>map(DomainEventMessage::getPayload).toList();
        ChannelState state = ChannelState.replay(payloads);
        List<VoucherAccepted> vouchers = payloads.stream().filter(VoucherAccepted.class::isInstance)
                .map(VoucherAccepted.class::cast).toList();
        return planner.plan(state, vouchers, UnprovenCloses.of(payloads).floor(), chainTime).map(executor::step);
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
