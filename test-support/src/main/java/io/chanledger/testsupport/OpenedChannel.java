package io.chanledger.testsupport;

import java.math.BigInteger;

import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/**
 * A channel as its {@code ChannelOpened} log reports it. channelId is lowercase 0x + 64 hex,
 * addresses lowercase 0x + 40 hex.
 */
public record OpenedChannel(String channelId, String consumer, String provider, BigInteger deposit, BigInteger expiry,
                            TransactionReceipt receipt, Log log) {

    public BigInteger blockNumber() {
        return receipt.getBlockNumber();
    }
}
