package io.chanledger.domain.gasgrant;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Records, before anything is signed, which faucet is about to send the transfer, the faucet's
 * next nonce ({@code faucetNonce}) and the latest block ({@code fromBlock}). A restart that finds
 * the attempt without a transaction hash searches the chain from there.
 */
public record StartGasGrantSend(
        @TargetAggregateIdentifier String wallet,
        String attemptId,
        String faucet,
        long faucetNonce,
        long fromBlock) {
}
