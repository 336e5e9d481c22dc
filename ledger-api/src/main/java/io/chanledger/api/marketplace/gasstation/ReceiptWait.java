package io.chanledger.api.marketplace.gasstation;

import io.chanledger.chain.rpc.RpcException;
import java.time.Duration;
import java.util.Optional;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/**
 * Asks the node for a transfer's receipt until it has one or {@code timeout} is over. A node that
 * fails to answer is asked again like one without the receipt: the transfer may be mined meanwhile.
 */
final class ReceiptWait {

    sealed interface Outcome {
    }

    record Mined(TransactionReceipt receipt) implements Outcome {
    }

    /** No receipt in time; {@code nodeReachable} tells whether the node's last answer was one. */
    record Missing(boolean nodeReachable) implements Outcome {
    }

    private final FaucetChain chain;
    private final Duration timeout;
    private final Duration pollInterval;

    ReceiptWait(FaucetChain chain, Duration timeout, Duration pollInterval) {
        this.chain = chain;
        this.timeout = timeout;
        this.pollInterval = pollInterval;
    }

    Duration timeout() {
        return timeout;
    }

    Outcome await(String txHash) {
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean reachable = true;
        while (true) {
            try {
                Optional<TransactionReceipt> receipt = chain.receipt(txHash);
                if (receipt.isPresent()) {
                    return new Mined(receipt.get());
                }
                reachable = true;
            } catch (RpcException e) {
                reachable = false;
            }
            if (System.nanoTime() >= deadline || !pause(pollInterval)) {
                return new Missing(reachable);
            }
        }
    }

    private static boolean pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
