package io.chanledger.api.marketplace;

import io.chanledger.domain.provider.ModelPrice;
import io.chanledger.domain.provider.PublishProviderModels;
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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
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
 * {@code /v1/pricing}, each probe started after a random delay within {@code health.jitter} (so a
 * thousand providers are not called in the same second), at most {@code health.concurrency} at
 * once, every call bounded by {@code health.timeout}. A round waits for its probes, so one
 * provider is never probed twice at the same time.
 *
 * <p>Each poll's measurements go to the health table; only what changed becomes a command — went
 * online, went offline after {@code health.failuresBeforeOffline} failures in a row, new models or
 * prices — and the aggregate records nothing when the command brings nothing new. One refresh of
 * the catalog follows each round.
 *
 * <p>A validator's probe alert asks for one check at once ({@link #checkNow}); a check of a
 * provider already under way is joined rather than repeated, so a provider is never probed twice
 * at the same moment, whoever asks.
 */
@Component
class ProviderHealthChecker implements SmartLifecycle {

    /** What one check found: whether the provider answered as required, and if not, why. */
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
    private final Map<String, CompletableFuture<Result>> checking = new ConcurrentHashMap<>();
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
     * found; joins the check of it already under way instead, if there is one. The directory shows
     * the result after the next catalog refresh, which this asks for.
     */
    Result checkNow(ProviderView target) {
        CompletableFuture<Result> mine = new CompletableFuture<>();
        CompletableFuture<Result> running = checking.putIfAbsent(target.id(), mine);
        if (running != null) {
            try {
                return running.join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
        }
        try {
            Result result = check(target);
            mine.complete(result);
            return result;
        } catch (RuntimeException e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            checking.remove(target.id(), mine);
            health.markChanged();
            catalog.requestRefresh();
        }
    }

    /** A round's check: skipped when another check of the provider (an alert's) is under way. */
    private void checkQuietly(ProviderView target) {
        CompletableFuture<Result> mine = new CompletableFuture<>();
        if (checking.putIfAbsent(target.id(), mine) != null) {
            return;
        }
        try {
            mine.complete(check(target));
        } catch (RuntimeException e) {
            mine.completeExceptionally(e);
            log.warn("health check of provider {} could not be recorded: {}", target.id(), e.toString());
        } finally {
            checking.remove(target.id(), mine);
        }
    }

    private Result check(ProviderView target) {
        String id = target.id();
        ProviderProbe.Answer answer;
        try {
            answer = probe.health(URI.create(target.row().apiUrl()), target.row().address(), settings.timeout());
        } catch (ProbeFailure failure) {
            Instant at = clock.instant();
            int failures = health.recordFailure(id, at, failure.getMessage());
            if (target.online() && failures >= settings.failuresBeforeOffline()
                    && Boolean.TRUE.equals(commands.sendAndWait(new RecordProviderOffline(id, failure.getMessage(),
                    failures, at)))) {
                log.info("provider {} went offline after {} failed checks: {}", id, failures, failure.getMessage());
            }
            return new Result(false, failure.getMessage());
        }
        Instant at = clock.instant();
        health.recordSuccess(id, at, answer.latencyMs());
        if (!target.online() && Boolean.TRUE.equals(commands.sendAndWait(new RecordProviderOnline(id, at)))) {
            log.info("provider {} is online", id);
        }
        List<ModelPrice> models = ModelPrice.canonical(answer.models());
        if (!models.equals(target.models())) {
            commands.sendAndWait(new PublishProviderModels(id, models, at));
        }
        return new Result(true, null);
    }

    private Thread thread(Runnable runnable) {
        Thread thread = new Thread(runnable, "provider-health-" + threadCount.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    }
}
