package io.chanledger.domain.gasgrant;

/** The faucet is about to sign the transfer with nonce {@code faucetNonce}; the chain was at {@code fromBlock}. */
public record GasGrantSendStarted(String wallet, String attemptId, String faucet, long faucetNonce, long fromBlock) {
}
