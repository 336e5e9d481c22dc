package io.chanledger.domain.channel;

import java.math.BigInteger;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Records the provider's signed {@code CloseAuthorization} handed to the consumer.
 * {@code requestedAt} (epoch seconds) tells which request holds are still running; null counts
 * every unsettled hold as running.
 */
public record AuthorizeClose(
        @TargetAggregateIdentifier String channelId,
        BigInteger finalAmount,
        String providerSignature,
        Long requestedAt) implements ChannelCommand {

    public AuthorizeClose(String channelId, BigInteger finalAmount, String providerSignature) {
        this(channelId, finalAmount, providerSignature, null);
    }
}
