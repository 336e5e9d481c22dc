package io.chanledger.chain.tx;

import java.math.BigInteger;
import java.time.Duration;

/**
 * {@code minPriorityFee}: a floor under the node's suggested tip (Polygon nodes ignore tips below
 * about 25-30 gwei). {@code maxFeeCap}: a ceiling on maxFeePerGas, or null for none.
 * {@code gasHeadroomPercent}: added to estimates, since state can change before inclusion.
 */
public record SenderSettings(Duration receiptTimeout, Duration receiptPollInterval, BigInteger minPriorityFee,
                             BigInteger maxFeeCap, int gasHeadroomPercent) {

    public static SenderSettings defaults() {
        return new SenderSettings(Duration.ofMinutes(2), Duration.ofSeconds(1), BigInteger.ZERO, null, 20);
    }

    public SenderSettings withReceiptTimeout(Duration timeout, Duration pollInterval) {
        return new SenderSettings(timeout, pollInterval, minPriorityFee, maxFeeCap, gasHeadroomPercent);
    }
}
