package io.chanledger.api.eventstore;

import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.commandhandling.gateway.RetryScheduler;

/**
 * Retries a command that lost a race with another instance for an aggregate's next sequence
 * number, and nothing else: a rejection is the command's answer, and any other failure would
 * only fail again. The retry runs after a short random pause, on fresh state (the failed unit of
 * work dropped the cached aggregate, and {@link ChannelCacheGuard} checks it again).
 */
final class ConflictRetryScheduler implements RetryScheduler {

    static final int MAX_RETRIES = 8;
    private static final int MAX_PAUSE_MILLIS = 5;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "command-conflict-retry");
        thread.setDaemon(true);
        return thread;
    });

    @Override
    public boolean scheduleRetry(CommandMessage commandMessage, RuntimeException lastFailure,
                                 List<Class<? extends Throwable>[]> failures, Runnable commandDispatch) {
        if (!StorageConflicts.isConflict(lastFailure) || failures.size() > MAX_RETRIES) {
            return false;
        }
        timer.schedule(commandDispatch, ThreadLocalRandom.current().nextInt(MAX_PAUSE_MILLIS + 1),
                TimeUnit.MILLISECONDS);
        return true;
    }

    void shutdown() {
        timer.shutdownNow();
    }
}
