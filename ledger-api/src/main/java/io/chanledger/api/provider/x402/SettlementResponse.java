package io.chanledger.api.provider.x402;

import java.math.BigInteger;

/**
 * What the {@code PAYMENT-RESPONSE} (v2) / {@code X-PAYMENT-RESPONSE} (v1) header and the
 * facilitator's {@code /settle} answer carry: {@code success}, the reason when not
 * ({@code errorReason}), the {@code payer}, the {@code transaction} hash ({@code ""} when nothing was
 * mined), the {@code network} and the {@code amount} settled in base units (null when none).
 */
public record SettlementResponse(boolean success, X402Reason errorReason, String payer, String transaction,
                                 String network, BigInteger amount) {

    public static SettlementResponse settled(String payer, String transaction, String network, BigInteger amount) {
        return new SettlementResponse(true, null, payer, transaction, network, amount);
    }

    public static SettlementResponse failed(X402Reason reason, String payer, String transaction, String network) {
        return new SettlementResponse(false, reason, payer, transaction == null ? "" : transaction, network, null);
    }
}
