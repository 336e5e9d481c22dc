package io.chanledger.domain.x402;

/**
 * The chain's final blocks hold the settlement of an x402 payment: in transaction
 * {@code transaction} of block {@code blockNumber}, the token logged
 * {@code AuthorizationUsed(payer, nonce)} (log {@code authorizationLogIndex}) and the
 * {@code Transfer} of the payment's exact amount from the payer to the provider (log
 * {@code transferLogIndex}). Follows the payment's {@link X402PaymentSettled} in its stream.
 */
public record X402PaymentConfirmed(
        String payer,
        String nonce,
        String transaction,
        long blockNumber,
        int authorizationLogIndex,
        int transferLogIndex) implements X402Event {
}
