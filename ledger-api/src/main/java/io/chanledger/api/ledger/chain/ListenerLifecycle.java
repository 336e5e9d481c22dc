package io.chanledger.api.ledger.chain;

import io.chanledger.chain.ingest.ChainListener;
import io.chanledger.chain.ingest.ListenerRunner;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the chain listener's own polling thread once the application is up and stops it first
 * on shutdown, letting the range in progress commit or roll back.
 */
public class ListenerLifecycle implements SmartLifecycle {

    private final ListenerRunner runner;

    ListenerLifecycle(ListenerRunner runner) {
        this.runner = runner;
    }

    public ChainListener listener() {
        return runner.listener();
    }

    /** Stops ingesting after the range in progress; for maintenance and tests. */
    public void pause() {
        runner.pause();
    }

    public void resume() {
        runner.resume();
    }

    @Override
    public void start() {
        runner.start();
    }

    @Override
    public void stop() {
        runner.stop();
    }

    @Override
    public boolean isRunning() {
        return runner.isRunning();
    }
}
