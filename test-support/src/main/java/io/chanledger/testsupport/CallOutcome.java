package io.chanledger.testsupport;

/** What a simulated call ({@code eth_call}) would do: succeed, or revert with a named error. */
public record CallOutcome(boolean success, String error) {

    public static CallOutcome succeeded() {
        return new CallOutcome(true, null);
    }

    public static CallOutcome reverted(String error) {
        return new CallOutcome(false, error);
    }
}
