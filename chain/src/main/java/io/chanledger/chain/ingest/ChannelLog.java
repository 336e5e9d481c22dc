package io.chanledger.chain.ingest;

import io.chanledger.domain.chain.ChainRef;
import java.math.BigInteger;

/**
 * A decoded log of the channel contract. Addresses and ids lowercase 0x-hex; amounts in USDC base
 * units as the contract emitted them.
 */
public sealed interface ChannelLog extends DecodedLog.Recorded {

    String channelId();

    ChainRef chainRef();

    /** {@code ChannelOpened}: expiry is {@code block.timestamp + duration}, a uint256 like the rest. */
    record Opened(String channelId, String consumer, String provider, BigInteger deposit, BigInteger expiry,
                  ChainRef chainRef) implements ChannelLog {

        /** The expiry as epoch seconds; a duration so large it overflows means "never", Long.MAX_VALUE. */
        public long expirySeconds() {
            return expiry.bitLength() < Long.SIZE ? expiry.longValue() : Long.MAX_VALUE;
        }
    }

    /** {@code ChannelClaimed}: {@code amount} is the incremental gross payout of one claim. */
    record Claimed(String channelId, String provider, BigInteger amount, ChainRef chainRef) implements ChannelLog {
    }

    /** {@code ChannelClosed}: the channel was deleted and {@code refund} went back to the consumer. */
    record Closed(String channelId, String consumer, BigInteger refund, ChainRef chainRef) implements ChannelLog {
    }

    /** {@code FeePaid}: the protocol fee of the claim logged right after it in the same transaction. */
    record FeePaid(String channelId, String recipient, BigInteger amount, ChainRef chainRef) implements ChannelLog {
    }
}
