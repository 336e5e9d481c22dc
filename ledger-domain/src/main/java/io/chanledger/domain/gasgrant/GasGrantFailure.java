package io.chanledger.domain.gasgrant;

/**
 * Why an attempt paid nothing, as the chain shows it. Each reason is only accepted in the states
 * where it can be proven: once a transaction hash is known, "not sent" is no longer an option.
 */
public enum GasGrantFailure {
    /** No transfer of the attempt was broadcast (refused before broadcast, or the chain holds none). */
    NOT_SENT("not_sent"),
    /** The transfer was mined and reverted: gas was spent, no POL arrived. */
    REVERTED("reverted"),
    /** Another transaction of the faucet took the transfer's nonce: it can never be mined. */
    REPLACED("replaced"),
    /** The node no longer knows the transfer and its nonce is still unused. */
    DROPPED("dropped");

    private final String code;

    GasGrantFailure(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
