package io.chanledger.chain.tx;

/**
 * A simulated call: it returned {@code returnData}, or it reverted with a named reason
 * ({@code revertData} as 0x-hex when the node gave it).
 */
public record CallResult(boolean success, String returnData, String revertReason, String revertData) {

    public static CallResult returned(String returnData) {
        return new CallResult(true, returnData, null, null);
    }

    public static CallResult reverted(String reason, String revertData) {
        return new CallResult(false, null, reason, revertData);
    }
}
