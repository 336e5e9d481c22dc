package io.chanledger.chain.tx;

import java.math.BigInteger;

/**
 * How a send ended. Only {@link Mined} means the call took effect; a broadcast transaction
 * without a receipt ({@link NotMined}) is not paid, and may still be mined later.
 */
public sealed interface SendResult {

    /** Mined and succeeded. */
    record Mined(String txHash, BigInteger nonce, long blockNumber, String blockHash, BigInteger gasUsed,
                 BigInteger effectiveGasPrice) implements SendResult {
    }

    /** Mined and reverted; {@code revertReason} from replaying the call, when the node gives one. */
    record Reverted(String txHash, BigInteger nonce, long blockNumber, BigInteger gasUsed, String revertReason)
            implements SendResult {
    }

    /** Broadcast, but no receipt within the timeout. Its nonce is spent unless it gets dropped. */
    record NotMined(String txHash, BigInteger nonce) implements SendResult {
    }

    /** Not broadcast: the call would revert, or the node refused the transaction for good. */
    record Refused(String reason, String revertReason) implements SendResult {
    }

    /**
     * A transient failure (node unreachable, rate limited). {@code txHash} is set when a signed
     * transaction may have reached the node; check it before sending the same call again.
     */
    record TransientFailure(String reason, String txHash) implements SendResult {
    }
}
