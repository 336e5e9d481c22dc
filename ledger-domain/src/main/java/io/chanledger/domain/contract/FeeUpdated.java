package io.chanledger.domain.contract;

import io.chanledger.domain.chain.ChainRef;
import java.math.BigInteger;

/**
 * The channel contract changed its protocol fee: claims logged after {@code chainRef} pay
 * {@code feeBps} basis points of their payout to {@code feeRecipient}.
 */
public record FeeUpdated(
        String contractId,
        String feeRecipient,
        BigInteger feeBps,
        ChainRef chainRef) {
}
