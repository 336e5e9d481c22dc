package io.chanledger.domain.channel;

import io.chanledger.domain.chain.ChainRef;
import java.math.BigInteger;

/** The finalized {@code ChannelOpened} log of a provisionally opened channel; its facts prevail. */
public record ChannelOpenConfirmed(
        String channelId,
        String consumer,
        String provider,
        BigInteger deposit,
        long expiry,
        ChainRef chainRef) implements ChannelEvent {
}
