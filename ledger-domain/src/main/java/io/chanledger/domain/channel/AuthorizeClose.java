package io.chanledger.domain.channel;

import java.math.BigInteger;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Records the provider's signed {@code CloseAuthorization} handed to the consumer. */
public record AuthorizeClose(
        @TargetAggregateIdentifier String channelId,
        BigInteger finalAmount,
        String providerSignature) {
}
