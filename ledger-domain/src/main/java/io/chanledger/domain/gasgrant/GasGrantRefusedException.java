package io.chanledger.domain.gasgrant;

/**
 * A gas grant command the aggregate refused; nothing was recorded. {@code txHash} is the granted
 * transfer (ALREADY_GRANTED) or the pending one, when known; {@code attemptId} the pending attempt.
 */
public class GasGrantRefusedException extends RuntimeException {

    private final GasGrantRefusal reason;
    private final String txHash;
    private final String attemptId;

    public GasGrantRefusedException(GasGrantRefusal reason, String detail) {
        this(reason, detail, null, null);
    }

    public GasGrantRefusedException(GasGrantRefusal reason, String detail, String txHash, String attemptId) {
        super(detail, null, false, false);
        this.reason = reason;
        this.txHash = txHash;
        this.attemptId = attemptId;
    }

    public GasGrantRefusal reason() {
        return reason;
    }

    public String txHash() {
        return txHash;
    }

    public String attemptId() {
        return attemptId;
    }
}
