package io.chanledger.chain.tx;

import java.math.BigInteger;

/**
 * A contract call to sign and send. {@code gasLimit} null means "estimate it": the estimate
 * doubles as a simulation, so a call that would revert is refused before anything is broadcast.
 */
public record TransactionRequest(String to, String data, BigInteger value, BigInteger gasLimit) {

    public TransactionRequest {
        if (to == null || data == null) {
            throw new IllegalArgumentException("a transaction needs a recipient and call data");
        }
        value = value == null ? BigInteger.ZERO : value;
    }

    public static TransactionRequest call(String to, String data) {
        return new TransactionRequest(to, data, BigInteger.ZERO, null);
    }

    public TransactionRequest withGasLimit(BigInteger limit) {
        return new TransactionRequest(to, data, value, limit);
    }
}
