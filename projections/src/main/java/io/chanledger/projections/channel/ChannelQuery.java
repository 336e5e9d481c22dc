package io.chanledger.projections.channel;

import io.chanledger.domain.channel.ChannelStatus;

/**
 * A filter over channel balances with its keyset position: null fields do not filter.
 * Addresses lowercase; {@code after} is the last channel id of the previous page.
 */
public record ChannelQuery(String provider, String consumer, ChannelStatus status, Boolean atRisk, String after,
                           int limit) {
}
