package io.chanledger.domain.channel;

/**
 * The finalized chain time passed the channel's expiry: from now on the consumer may close and
 * take back whatever is unclaimed. Observed at finalized block {@code blockNumber}.
 */
public record ChannelExpired(String channelId, long expiry, long chainTime, long blockNumber) implements ChannelEvent {
}
