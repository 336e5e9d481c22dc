package io.chanledger.domain.x402;

import java.math.BigInteger;

/**
 * The provider's wallet settled an x402 payment: transaction {@code transaction}, mined in block
 * {@code blockNumber}, moved exactly {@code amount} base units from {@code payer} to
 * {@code provider} (the provider's wallet, the payment's {@code payTo}) under the EIP-3009
 * authorization {@code nonce}, for {@code model} (the model or service sold; empty when unknown).
 * {@code settledAt}: epoch seconds, when the provider saw the receipt.
 */
public record X402PaymentSettled(
        String payer,
        String provider,
        BigInteger amount,
        String nonce,
        String transaction,
        String model,
        long blockNumber,
        long settledAt) implements X402Event {
}
