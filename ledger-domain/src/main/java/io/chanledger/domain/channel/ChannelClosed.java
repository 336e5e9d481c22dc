package io.chanledger.domain.channel;

import io.chanledger.domain.chain.ChainRef;
import java.math.BigInteger;

/** The channel was closed on-chain and deleted by the contract; {@code refund} went to the consumer. */
public record ChannelClosed(String channelId, BigInteger refund, CloseKind kind, ChainRef chainRef) implements ChannelEvent {
}
