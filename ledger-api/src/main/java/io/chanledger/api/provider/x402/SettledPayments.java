package io.chanledger.api.provider.x402;

import io.chanledger.api.provider.x402.X402Settlement.PaymentRecord;
import io.chanledger.domain.x402.X402PaymentConfirmed;

/**
 * Told of each payment the chain shows settled: once as it settles, and again by
 * {@link ProviderFacilitator#recoverUnfinished()} if the process died before noting it was told, so an
 * implementation keeps each payment (payer, nonce) once however often it is told.
 */
@FunctionalInterface
public interface SettledPayments {
    SettledPayments NONE = (record, blockNumber) -> { };

    void settled(PaymentRecord record, long blockNumber);

    /**
     * The chain's final blocks show the settlement: told once per pass of
     * {@link ProviderFacilitator#confirmFinal} until it returns, so an implementation keeps it once.
     */
    default void confirmed(X402PaymentConfirmed confirmation) {
    }
}
