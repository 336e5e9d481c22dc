package io.chanledger.chain.ingest;

import io.chanledger.domain.chain.ChainRef;
import java.math.BigInteger;

/**
 * A decoded log about the channel contract's own settings rather than one channel. Addresses
 * lowercase 0x-hex.
 */
public sealed interface ContractLog extends DecodedLog.Recorded {

    /** {@code FeeUpdated}: claims logged after it pay {@code feeBps} basis points to {@code feeRecipient}. */
    record FeeUpdated(String feeRecipient, BigInteger feeBps, ChainRef chainRef) implements ContractLog {
    }

    /** {@code USDCUpdated}: after it the contract moves {@code usdc} instead of {@code previousUsdc}. */
    record UsdcUpdated(String previousUsdc, String usdc, ChainRef chainRef) implements ContractLog {
    }
}
