package io.chanledger.domain.channel;

import java.math.BigInteger;

/**
 * The provider signed a {@code CloseAuthorization} for {@code finalAmount}. {@code byConsumer}
 * is false when the request for it did not prove it came from the consumer: the channel then
 * goes on paying for requests (see the Channel aggregate's close rules). Events recorded before
 * the distinction existed carry null and count as the consumer's.
 */
public record CloseAuthorized(String channelId, BigInteger finalAmount, String providerSignature, Boolean byConsumer) implements ChannelEvent {

    public CloseAuthorized(String channelId, BigInteger finalAmount, String providerSignature) {
        this(channelId, finalAmount, providerSignature, true);
    }

    public boolean stopsPayments() {
        return byConsumer == null || byConsumer;
    }
}
