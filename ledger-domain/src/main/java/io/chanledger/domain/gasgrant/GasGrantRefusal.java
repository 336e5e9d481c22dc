package io.chanledger.domain.gasgrant;

/** Why the GasGrant aggregate refused a command. */
public enum GasGrantRefusal {
    INVALID_COMMAND("invalid_command"),
    ALREADY_GRANTED("already_granted"),
    GRANT_PENDING("grant_pending"),
    ATTEMPT_NOT_PENDING("attempt_not_pending"),
    OUT_OF_ORDER("out_of_order"),
    CONFLICTING_TRANSACTION("conflicting_transaction"),
    FAILURE_NOT_PROVEN("failure_not_proven");

    private final String code;

    GasGrantRefusal(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
