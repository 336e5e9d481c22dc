package io.chanledger.api.marketplace.directory;

import io.chanledger.domain.provider.ModelPrice;
import io.chanledger.domain.provider.PublishProviderModels;
import io.chanledger.domain.provider.RecordProviderInference;
import io.chanledger.domain.provider.RecordProviderOffline;
import io.chanledger.domain.provider.RecordProviderOnline;
import io.chanledger.projections.marketplace.MarketplaceCatalog;
import io.chanledger.projections.marketplace.ProviderHealthStore;
import io.chanledger.projections.marketplace.ProviderView;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Polls every approved provider each {@code health.interval}: {@code /v1/models} and
 * {@code /v1/pricing} (the pricing side), {@code /v1/docs} and an unpaid {@code POST
 * /v1/chat/completions} (the inference side, see {@link ProviderProbe}), each probe started after a random delay within {@code health.jitter} (so a
 * thousand providers are not called in the same second), at most {@code health.concurrency} at
 * once, every call bounded by {@code health.timeout}. A round waits for its probes, so one
 * provider is never probed twice at the same time.
 *
 * <p>Each poll's measurements go to the health table; only what changed becomes a command — went
 * online, went offline after {@code health.failuresBeforeOffline} failures in a row, the same for
 * the inference side, new models or prices — and the aggregate records nothing when the command brings nothing new. One refresh of
 * the catalog follows each round.
 *
 * <p>A validator's probe alert asks for one check at once ({@link #checkNow}). A provider is never
 * probed twice at the same moment, whoever asks: the alert waits for a check that began before it
 * and joins one that began after ({@link ChecksUnderWay}).
 */
@Component
class ProviderHealthChecker implements SmartLifecycle {

    /** What one check found: whether the provider answered as required on both sides, and if not, why. */
    record Result(boolean reachable, String failure) {
    }

    private static final Logger log = LoggerFactory.getLogger(ProviderHealthChecker.class);

    private final MarketplaceCatalog catalog;
    private final ProviderProbe probe;
    private final ProviderHealthStore health;
    private final CommandGateway commands;
    private final MarketplaceProperties.Health settings;
    private final Clock clock;
    private final AtomicInteger threadCount = new AtomicInteger();
    private final ChecksUnderWay<String, Result> checks = new ChecksUnderWay<>();
    private ScheduledExecutorService rounds;
    private ScheduledExecutorService probes;
    private volatile boolean running;

    ProviderHealthChecker(MarketplaceCatalog catalog, ProviderProbe probe, ProviderHealthStore health,
                          CommandGateway commands, MarketplaceProperties properties, Clock clock) {
        this.catalog = catalog;
        this.probe = probe;
        this.health = health;
        this.commands = commands;
        this.settings = properties.health();
        this.clock = clock;
    }

    @Override
    public synchronized void start() {
        probes = Executors.newScheduledThreadPool(settings.concurrency(), this::thread);
        running = true;
        if (settings.enabled()) {
            rounds = Executors.newSingleThreadScheduledExecutor(this::thread);
            long every = settings.interval().toMillis();
            rounds.scheduleWithFixedDelay(this::round, every, every, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (rounds != null) {
            rounds.shutdownNow();
        }
        if (probes != null) {
            probes.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Probes one provider without waiting for the next round (after an approval). */
    void checkSoon(String providerId) {
        if (!running || !settings.enabled()) {
            return;
        }
        probes.schedule(() -> {
            catalog.current().find(providerId).ifPresent(this::checkQuietly);
            catalog.requestRefresh();
        }, 0, TimeUnit.MILLISECONDS);
    }

    private void round() {
        try {
            List<ProviderView> targets = catalog.current().providers().stream().filter(ProviderView::listed).toList();
            long jitter = Math.max(0, Math.min(settings.jitter().toMillis(), settings.interval().toMillis()));
            List<Future<?>> pending = new ArrayList<>();
            for (ProviderView target : targets) {
                long delay = jitter == 0 ? 0 : ThreadLocalRandom.current().nextLong(jitter);
                pending.add(probes.schedule(() -> checkQuietly(target), delay, TimeUnit.MILLISECONDS));
            }
            for (Future<?> future : pending) {
                future.get();
            }
            if (!targets.isEmpty()) {
                health.markChanged();
                catalog.requestRefresh();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.warn("provider health round failed: {}", e.toString());
        }
    }

    /**
     * Checks {@code target} now on the caller's thread, exactly as a round does, and records what it
     * found. A check of it already under way began before the caller asked, and may have found the
     * provider as it was before what the caller reports: this waits for it to end, then checks. If
     * another check began meanwhile, it began after the caller asked, and this joins it. The
     * directory shows the result after the next catalog refresh, which this asks for.
     */
    Result checkNow(ProviderView target) {
        try {
            return checks.runFresh(target.id(), () -> check(target));
        } finally {
            health.markChanged();
            catalog.requestRefresh();
        }
    }

    /** A round's check: skipped when another check of the provider (an alert's) is under way. */
    private void checkQuietly(ProviderView target) {
        try {
            checks.runUnlessUnderWay(target.id(), () -> check(target));
        } catch (RuntimeException e) {
            log.warn("health check of provider {} could not be recorded: {}", target.id(), e.toString());
        }
    }

    /**
     * One check of both sides: the pricing side ({@code /v1/models}, {@code /v1/pricing}) decides
     * whether the provider is up at all, as before; the inference side ({@code /v1/docs} and the
     * unpaid chat probe) whether agents can be served. Each side has its own run of failures and
     * goes down after {@code failures-before-offline} of them, so one slow answer drops neither.
     * The inference side is probed even when pricing failed, since the directory shows it apart.
     */
    private Result check(ProviderView target) {
        String id = target.id();
        ProviderProbe.Answer answer = null;
        String pricingFailure = null;
        String inferenceFailure = null;
        // both sides call the addresses the host resolved to once, at the check's start
        try (ProviderTarget provider = probe.target(URI.create(target.row().apiUrl()))) {
            try {
                answer = probe.pricing(provider, target.row().address(), settings.timeout());
            } catch (ProbeFailure failure) {
                pricingFailure = failure.getMessage();
            }
            List<ModelPrice> known = answer != null ? answer.models() : target.models();
            try {
                probe.inference(provider, target.row().address(), known.isEmpty() ? null : known.getFirst().id(),
                        settings.timeout());
            } catch (ProbeFailure failure) {
                inferenceFailure = failure.getMessage();
            }
        }
        Instant at = clock.instant();
        if (answer == null) {
            int failures = health.recordFailure(id, at, pricingFailure);
            if (target.pricingOnline() && failures >= settings.failuresBeforeOffline()
                    && Boolean.TRUE.equals(commands.sendAndWait(new RecordProviderOffline(id, pricingFailure,
                    failures, at)))) {
                log.info("provider {} went offline after {} failed checks: {}", id, failures, pricingFailure);
            }
        } else {
            health.recordSuccess(id, at, answer.latencyMs(), inferenceFailure == null);
            if (!target.pricingOnline() && Boolean.TRUE.equals(commands.sendAndWait(new RecordProviderOnline(id, at)))) {
                log.info("provider {} is online", id);
            }
            List<ModelPrice> models = ModelPrice.canonical(answer.models());
            if (!models.equals(target.models())) {
                commands.sendAndWait(new PublishProviderModels(id, models, at));
            }
        }
        recordInference(target, inferenceFailure, at);
        return pricingFailure == null && inferenceFailure == null ? new Result(true, null)
                : new Result(false, pricingFailure != null ? pricingFailure : inferenceFailure);
    }

    private void recordInference(ProviderView target, String failure, Instant at) {
        String id = target.id();
        int failures = health.recordInference(id, failure);
        if (failure == null && !target.inferenceOnline()
                && Boolean.TRUE.equals(commands.sendAndWait(new RecordProviderInference(id, true, null, 0, at)))) {
            log.info("provider {}: its inference side is up", id);
        } else if (failure != null && target.inferenceOnline() && failures >= settings.failuresBeforeOffline()
                && Boolean.TRUE.equals(commands.sendAndWait(new RecordProviderInference(id, false, failure, failures,
                at)))) {
            log.info("provider {}: its inference side went down after {} failed checks: {}", id, failures, failure);
        }
    }

    private Thread thread(Runnable runnable) {
        Thread thread = new Thread(runnable, "provider-health-" + threadCount.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    }
}
