package io.chanledger.chain.ingest;

/** The listener stopped for good (reorg below the finality line, wrong chain or signing domain, conflicting fact). */
public final class ListenerHaltedException extends RuntimeException {

    private final ListenerStats.HaltReason reason;

    public ListenerHaltedException(ListenerStats.HaltReason reason, String detail) {
        super(reason + ": " + detail, null, false, false);
        this.reason = reason;
    }

    public ListenerStats.HaltReason reason() {
        return reason;
    }
}
