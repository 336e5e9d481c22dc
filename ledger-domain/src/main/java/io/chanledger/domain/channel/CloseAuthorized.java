package io.chanledger.domain.channel;

import java.math.BigInteger;

/**
 * The provider signed a {@code CloseAuthorization} for {@code finalAmount}. {@code byConsumer}
 * is false when the request for it did not prove it came from the consumer: the channel then
 * goes on paying for requests (see the Channel aggregate's close rules). Events recorded before
 * the distinction existed carry null and count as the consumer's. {@code authorizedAt}: when an
 * unsigned one was asked for (epoch seconds), which spaces them apart; null for the consumer's,
 * and on events recorded before it was kept.
 */
public record CloseAuthorized(String channelId, BigInteger finalAmount, String providerSignature, Boolean byConsumer,
                              Long authorizedAt) implements ChannelEvent {

    public CloseAuthorized(String channelId, BigInteger finalAmount, String providerSignature) {
        this(channelId, finalAmount, providerSignature, true, null);
    }

    public CloseAuthorized(String channelId, BigInteger finalAmount, String providerSignature, Boolean byConsumer) {
        this(channelId, finalAmount, providerSignature, byConsumer, null);
    }

    public boolean stopsPayments() {
        return byConsumer == null || byConsumer;
    }
}
