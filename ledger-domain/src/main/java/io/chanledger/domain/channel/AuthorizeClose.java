package io.chanledger.domain.channel;

import java.math.BigInteger;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Records the provider's signed {@code CloseAuthorization} handed out for the channel.
 * {@code requestedAt} (epoch seconds) tells which request holds are still running.
 * {@code byConsumer}: the request for it proved it came from the channel's consumer (a wallet
 * signature); only such a close stops the channel from paying for more requests. Anyone can ask
 * for a close authorization, since real clients ask unsigned; one asked for unsigned at an amount
 * not authorized before is recorded at most once per {@code unprovenCloseInterval} seconds on a
 * channel (each may cost the provider a claim), and refused with
 * {@link CloseAuthorizationRateLimitedException} sooner.
 */
public record AuthorizeClose(
        @TargetAggregateIdentifier String channelId,
        BigInteger finalAmount,
        String providerSignature,
        long requestedAt,
        boolean byConsumer,
        long unprovenCloseInterval) implements ChannelCommand {

    /** A close asked for by the consumer, counting every unsettled hold as running. */
    public AuthorizeClose(String channelId, BigInteger finalAmount, String providerSignature) {
        this(channelId, finalAmount, providerSignature, Long.MIN_VALUE, true, 0);
    }

    public AuthorizeClose {
        if (unprovenCloseInterval < 0) {
            throw new IllegalArgumentException("the interval between unsigned close authorizations is not negative");
        }
    }
}
