package io.chanledger.api.marketplace.gasstation;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Attempts a request of this instance is working on. Recovery leaves them alone: only an attempt
 * whose request is gone (it ended, or the process died) is resolved from the chain.
 */
final class LiveAttempts {

    private final Set<String> attempts = ConcurrentHashMap.newKeySet();

    void add(String attemptId) {
        attempts.add(attemptId);
    }

    void remove(String attemptId) {
        attempts.remove(attemptId);
    }

    boolean contains(String attemptId) {
        return attempts.contains(attemptId);
    }
}
