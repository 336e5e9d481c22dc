package io.chanledger.testsupport;

/**
 * A transaction or call the contract refused. {@link #error()} is the custom error's name
 * ({@code InvalidAmount}), {@code Error: <reason>} for a require message, {@code Panic(0x11)}
 * for a panic, or the node's message when it returned no revert data.
 */
public final class ContractRevertedException extends RuntimeException {

    private final String error;
    private final String revertData;

    public ContractRevertedException(String error, String revertData) {
        super("reverted: " + error + (revertData == null ? "" : " (" + revertData + ")"));
        this.error = error;
        this.revertData = revertData;
    }

    public String error() {
        return error;
    }

    public String revertData() {
        return revertData;
    }
}
