package io.chanledger.domain.gasgrant;

/** The transfer {@code txHash} may be in the node's pool; {@code txNonce} null when the sender did not say. */
public record GasGrantBroadcast(String wallet, String attemptId, String txHash, Long txNonce) {
}
