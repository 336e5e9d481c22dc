package io.chanledger.api.provider.gateway;

import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.provider.watchtower.ClaimStore;
import io.chanledger.api.provider.watchtower.CloseWatch;
import io.chanledger.domain.channel.AuthorizeClose;
import io.chanledger.domain.channel.CloseAuthorizationRateLimitedException;
import io.chanledger.domain.channel.ChannelLookup;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.domain.channel.CloseAuthorizationRejectedException;
import io.chanledger.domain.channel.OnChainChannel;
import io.chanledger.domain.eip712.ChanTypedData;
import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.time.Clock;
import java.util.Map;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Signs and records close authorizations. The final amount is what the channel was charged, but
 * never less than what was claimed on-chain, as far as the gateway can know it: the ledger's
 * recorded claims, claims the watchtower saw mined but the listener has not recorded yet, and
 * the contract's own {@code claimed} when the chain can be asked. The Channel aggregate refuses
 * the authorization while requests are running or if the charged total moved meanwhile; the
 * latter is retried with fresh figures.
 *
 * <p>Channel ids are public, and real clients ask for the close unsigned, so anyone can obtain
 * the authorization (it only helps the consumer, who alone can use it on-chain). Only a request
 * signed by the consumer's wallet stops the channel from paying for more requests; after an
 * unsigned one the channel is put under the watchtower's guard ({@link CloseWatch}), and the
 * Channel aggregate lets only one request be charged above the authorization until a claim voids
 * it. Asked for again unsigned at the same amount, the same authorization is answered; at a new
 * amount, at most once per {@code chan.gateway.unsigned-close-interval} on a channel (each may
 * cost the provider a claim), else 429 {@code rate_limited} with {@code Retry-After}.
 */
@Component
class CloseAuthorizer {

    /**
     * {@code excessToReturn}: how much of {@code finalAmount} the channel was not charged (it was
     * claimed on-chain already with a voucher above the charged total), which the provider gives
     * back to the consumer once the channel has ended; zero normally.
     */
    record Authorization(String channelId, BigInteger finalAmount, String signature, BigInteger excessToReturn) {
    }

    private static final Logger log = LoggerFactory.getLogger(CloseAuthorizer.class);
    private static final int ATTEMPTS = 3;

    private final ChannelHistory history;
    private final CommandGateway commands;
    private final ProviderIdentity identity;
    private final ChanTypedData typedData;
    private final ClaimStore claims;
    private final ObjectProvider<ChannelLookup> lookup;
    private final CloseWatch closeWatch;
    private final Clock clock;
    private final long unsignedCloseInterval;

    CloseAuthorizer(ChannelHistory history, CommandGateway commands, ProviderIdentity identity, ChainProperties chain,
                    ClaimStore claims, ObjectProvider<ChannelLookup> lookup, CloseWatch closeWatch, Clock clock,
                    GatewayProperties properties) {
        this.history = history;
        this.commands = commands;
        this.identity = identity;
        this.typedData = new ChanTypedData(chain.signingDomain());
        this.claims = claims;
        this.lookup = lookup;
        this.closeWatch = closeWatch;
        this.clock = clock;
        this.unsignedCloseInterval = properties.unsignedCloseInterval().toSeconds();
    }

    /**
     * Signs and records the close of {@code channelId}. {@code requester}: the wallet that signed
     * the request, or null for an unsigned one; a wallet other than the consumer's is refused.
     */
    Authorization authorize(String channelId, String requester) {
        CloseAuthorizationRejectedException refusal = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            ChannelState state = history.state(channelId).orElseThrow(() -> new GatewayProblem(HttpStatus.NOT_FOUND,
                    "channel_not_found", "no channel " + channelId + " is known here"));
            if (!identity.address().equalsIgnoreCase(state.provider())) {
                throw new GatewayProblem(HttpStatus.FORBIDDEN, "wrong_provider",
                        "channel " + channelId + " is not opened to this provider");
            }
            if (state.status() == ChannelStatus.CLOSED) {
                throw new GatewayProblem(HttpStatus.CONFLICT, "channel_closed", "channel " + channelId + " is closed");
            }
            if (requester != null && !requester.equalsIgnoreCase(state.consumer())) {
                throw new GatewayProblem(HttpStatus.FORBIDDEN, "wallet_not_consumer",
                        "only the channel's consumer " + state.consumer() + " can sign a request to close it");
            }
            boolean byConsumer = requester != null;
            BigInteger finalAmount = state.chargedTotal().max(claimedFloor(state)).min(state.deposit());
            String signature = Hex.encode(identity.signer().sign(
                    typedData.closeAuthorizationDigest(Hex.decode(channelId), finalAmount)));
            try {
                if (!byConsumer) {
                    closeWatch.watch(channelId, identity.address());
                }
                commands.sendAndWait(new AuthorizeClose(channelId, finalAmount, signature,
                        clock.instant().getEpochSecond(), byConsumer, unsignedCloseInterval));
                return new Authorization(channelId, finalAmount, signature,
                        finalAmount.subtract(state.chargedTotal()).subtract(state.returned()).max(BigInteger.ZERO));
            } catch (CloseAuthorizationRejectedException e) {
                refusal = e;
            } catch (CloseAuthorizationRateLimitedException e) {
                throw new GatewayProblem(HttpStatus.TOO_MANY_REQUESTS, "rate_limited", e.getMessage(),
                        Map.of(HttpHeaders.RETRY_AFTER, Long.toString(e.retryAfterSeconds())));
            }
        }
        throw new GatewayProblem(HttpStatus.CONFLICT, "close_not_authorized", refusal.getMessage()
                + "; try again shortly");
    }

    private BigInteger claimedFloor(ChannelState state) {
        BigInteger floor = state.claimed().max(claims.highestMined(state.channelId()));
        ChannelLookup chain = lookup.getIfAvailable();
        if (chain != null) {
            try {
                floor = floor.max(chain.find(state.channelId()).map(OnChainChannel::claimed)
                        .orElse(BigInteger.ZERO));
            } catch (RuntimeException unreachable) {
                log.warn("could not read channel {} from the contract; closing above the recorded claims: {}",
                        state.channelId(), unreachable.getMessage());
            }
        }
        return floor;
    }
}
