package io.chanledger.api.provider.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.support.ChannelStates;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import io.chanledger.api.ledger.wallet.WalletSigning;
import io.chanledger.api.provider.watchtower.Watchtower;
import io.chanledger.testsupport.Devnet;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.chain.rpc.RetryPolicy;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.domain.channel.CloseAuthorized;
import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/**
 * Who can stop a channel at the gateway. Channel ids are public and real clients ask for the
 * close unsigned, so an unsigned close request is served, but it does not stop the consumer from
 * paying for more requests; what the consumer could gain by closing at that older amount after
 * more requests is one request, however slow the watchtower. A close request signed by the
 * consumer stops the channel at once.
 */
class CloseRequestTest extends LedgerIntegrationTest {

    private static final String FLAT_MODEL = "echo-flat";
    private static final String PROMPT = "a request to a flat-priced model, which costs the same whatever its length";

    @Autowired
    ProviderIdentity identity;
    @Autowired
    PriceList prices;
    @Autowired
    ChannelHistory history;
    @Autowired
    Watchtower watchtower;
    @Autowired
    GatewayProperties properties;

    /** A channel to the test gateway's provider, who has gas for the claims these tests may call for. */
    private Agent openedAgent(BigInteger deposit) {
        devnet().setBalance(identity.address(), Devnet.GAS_MONEY);
        Agent agent = Agent.create(devnet(), baseUrl());
        agent.open(identity.address(), deposit, 86_400);
        ChannelStates.awaitState(history, agent.channelId, s -> true, "the ledger to record the channel");
        return agent;
    }

    private Http.Reply pay(Agent agent, BigInteger total) {
        BigInteger hold = GatewayPrices.hold(prices, FLAT_MODEL, PROMPT, null);
        return agent.chat(agent.nextVoucher(agent.authorise(total.add(hold))),
                Agent.chatBody(FLAT_MODEL, PROMPT, null, false));
    }

    private static BigInteger charged(Http.Reply reply) {
        return new BigInteger(reply.raw().headers().firstValue("X-CHAN-Total").orElseThrow());
    }

    private Http.Reply unsignedClose(String channelId) {
        return Http.postJson(baseUrl() + "/v1/close-channel", "{\"channelId\":\"" + channelId + "\"}");
    }

    @Test
    void aStrangersUnsignedCloseLeavesTheConsumerAbleToPayForTheNextRequest() {
        Agent agent = openedAgent(BigInteger.valueOf(5_000_000));
        Http.Reply first = pay(agent, BigInteger.ZERO);
        assertThat(first.status()).as(first.body()).isEqualTo(200);

        Http.Reply close = unsignedClose(agent.channelId);
        assertThat(close.status()).as(close.body()).isEqualTo(200);
        assertThat(new BigInteger(close.json().path("finalAmount").asText())).isEqualTo(charged(first));

        Http.Reply next = pay(agent, charged(first));
        assertThat(next.status()).as("the consumer still pays for requests: %s", next.body()).isEqualTo(200);
    }

    @Test
    void aCloseSignedByAnotherWalletIsRefusedAndRecordsNothing() {
        Agent agent = openedAgent(BigInteger.valueOf(5_000_000));
        assertThat(pay(agent, BigInteger.ZERO).status()).isEqualTo(200);
        int events = history.events(agent.channelId).size();

        Http.Reply close = Http.send(WalletSigning.signedPost(baseUrl(), "/v1/close-channel",
                "{\"channelId\":\"" + agent.channelId + "\"}", TestKeys.wallet("close-stranger"),
                Instant.now().getEpochSecond()));
        assertThat(close.status()).as(close.body()).isEqualTo(403);
        assertThat(close.json().path("error").path("code").asText()).isEqualTo("wallet_not_consumer");
        assertThat(history.events(agent.channelId)).hasSize(events);
    }

    @Test
    void aCloseSignedByTheConsumerStopsTheChannelAtOnce() {
        Agent agent = openedAgent(BigInteger.valueOf(5_000_000));
        Http.Reply first = pay(agent, BigInteger.ZERO);
        assertThat(first.status()).isEqualTo(200);

        Http.Reply close = Http.send(WalletSigning.signedPost(baseUrl(), "/v1/close-channel",
                "{\"channelId\":\"" + agent.channelId + "\"}", agent.signer(), Instant.now().getEpochSecond()));
        assertThat(close.status()).as(close.body()).isEqualTo(200);

        Http.Reply next = pay(agent, charged(first));
        assertThat(next.status()).isEqualTo(402);
        assertThat(next.json().path("error").path("code").asText()).isEqualTo("channel_not_found");
        assertThat(next.json().path("error").path("message").asText()).contains("authorised the close");
    }

    /** Pays for requests until the gateway refuses one; returns the refusal and the charged total before it. */
    private record UntilRefused(Http.Reply refusal, BigInteger total, int served) {
    }

    private UntilRefused payUntilRefused(Agent agent, BigInteger total) {
        for (int served = 0; served < 50; served++) {
            Http.Reply reply = pay(agent, total);
            if (reply.status() != 200) {
                return new UntilRefused(reply, total, served);
            }
            total = charged(reply);
        }
        throw new AssertionError("fifty requests were served above an unproven close authorization");
    }

    /**
     * The free-service race with a slow watchtower (held off by holding its lock): the consumer asks
     * for an unsigned close, keeps paying, then closes on-chain at the older authorization. The
     * gateway served one request above it and then answered {@code claim_pending}, so what the
     * consumer took unpaid is that one request's price.
     */
    @Test
    void aConsumerClosingAtAnOlderAuthorizationTakesAtMostOneRequestUnpaid() {
        BigInteger deposit = BigInteger.valueOf(5_000_000);
        Agent agent = openedAgent(deposit);
        Http.Reply first = pay(agent, BigInteger.ZERO);
        assertThat(first.status()).isEqualTo(200);
        BigInteger price = charged(first);
        Http.Reply close = unsignedClose(agent.channelId);
        assertThat(close.status()).isEqualTo(200);
        BigInteger authorized = new BigInteger(close.json().path("finalAmount").asText());
        byte[] authorization = Hex.decode(close.json().path("signature").asText());

        UntilRefused run;
        synchronized (watchtower) {
            run = payUntilRefused(agent, charged(first));
            TransactionReceipt closed = devnet().cooperativeClose(agent.wallet, agent.channelId, authorized,
                    authorization);
            assertThat(closed.isStatusOK()).isTrue();
        }
        assertThat(run.refusal().status()).as(run.refusal().body()).isEqualTo(409);
        assertThat(run.refusal().json().path("error").path("code").asText()).isEqualTo("claim_pending");
        assertThat(run.refusal().raw().headers().firstValue("Retry-After")).isPresent();
        assertThat(run.served()).as("requests served above the authorization").isEqualTo(1);

        ChannelState state = ChannelStates.awaitState(history, agent.channelId,
                s -> s.status() == ChannelStatus.CLOSED, "the listener to record the close");
        assertThat(state.refund()).as("the consumer got back all above the older authorization")
                .isEqualTo(deposit.subtract(authorized));
        assertThat(state.chargedTotal().subtract(authorized)).as("what the provider lost: one request's price")
                .isEqualTo(run.total().subtract(authorized)).isEqualTo(price);
    }

    /**
     * After an unsigned close, requests above it are served one at a time: while a stream runs,
     * a concurrent request of the same channel waits, so two requests cannot both pass it.
     */
    @Test
    void whileOneRequestRunsAboveAnUnsignedCloseAConcurrentOneWaits() {
        Agent agent = openedAgent(BigInteger.valueOf(5_000_000));
        Http.Reply first = pay(agent, BigInteger.ZERO);
        assertThat(unsignedClose(agent.channelId).status()).isEqualTo(200);
        BigInteger ahead = charged(first).add(BigInteger.valueOf(1_000_000));

        String streamVoucher = agent.nextVoucher(agent.authorise(ahead));
        CompletableFuture<Http.Reply> stream = CompletableFuture.supplyAsync(() -> agent.chat(streamVoucher,
                Agent.chatBody("echo-1", PROMPT, null, true)));
        ChannelStates.awaitState(history, agent.channelId, s -> !s.holds().isEmpty(), "the stream to be admitted");
        Http.Reply concurrent = pay(agent, ahead);

        assertThat(concurrent.status()).as(concurrent.body()).isEqualTo(409);
        assertThat(concurrent.json().path("error").path("code").asText()).isEqualTo("claim_pending");
        assertThat(stream.join().status()).isEqualTo(200);
    }

    /**
     * The deployed client's own close: an unsigned close request, then {@code cooperativeClose}.
     * The authorization alone costs nobody anything: asked for again it is the same, the
     * watchtower sends no transaction for it, and the consumer pays exactly what it was charged,
     * however far its vouchers ran ahead.
     */
    @Test
    void anUnsignedCloseMakesNoClaimAndTheConsumerPaysExactlyWhatItWasCharged() {
        BigInteger deposit = BigInteger.valueOf(5_000_000);
        Agent agent = openedAgent(deposit);
        BigInteger charged = BigInteger.ZERO;
        for (int i = 0; i < 3; i++) {
            Http.Reply reply = payAhead(agent);
            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            charged = charged(reply);
        }
        long providerNonce = transactionCount(identity.address());

        Http.Reply strangers = unsignedClose(agent.channelId);
        assertThat(strangers.status()).as(strangers.body()).isEqualTo(200);
        Http.Reply own = unsignedClose(agent.channelId);
        assertThat(own.json()).as("asked again, the same authorization").isEqualTo(strangers.json());
        for (int round = 0; round < 3; round++) {
            watchtower.runOnce();
        }
        assertThat(transactionCount(identity.address())).as("no claim for an unsigned close").isEqualTo(providerNonce);

        BigInteger finalAmount = new BigInteger(own.json().path("finalAmount").asText());
        assertThat(finalAmount).as("the close is at the charged total, not at any voucher").isEqualTo(charged);
        assertThat(own.json().has("excessToReturn")).isFalse();
        TransactionReceipt closed = devnet().cooperativeClose(agent.wallet, agent.channelId, finalAmount,
                Hex.decode(own.json().path("signature").asText()));
        assertThat(closed.isStatusOK()).isTrue();
        assertThat(deposit.subtract(devnet().balanceOf(agent.address()))).as("what the consumer paid")
                .isEqualTo(charged);
        assertThat(history.state(agent.channelId).orElseThrow().highestAmount())
                .as("its vouchers ran far ahead of what it paid").isGreaterThan(charged.add(BigInteger.valueOf(20_000)));
        assertThat(transactionCount(identity.address())).as("no watchtower transaction at all")
                .isEqualTo(providerNonce);
    }

    /** A paid request with a voucher as real clients sign it: the previous amount plus an estimate well above the cost. */
    private Http.Reply payAhead(Agent agent) {
        BigInteger hold = GatewayPrices.hold(prices, FLAT_MODEL, PROMPT, null);
        return agent.chat(agent.nextVoucher(agent.budget(hold.multiply(BigInteger.valueOf(12)).divide(BigInteger.TEN)
                .add(BigInteger.valueOf(7_000)))), Agent.chatBody(FLAT_MODEL, PROMPT, null, false));
    }

    private long transactionCount(String address) {
        return new EthApi(new JsonRpcClient(devnet().rpcUrl(), Duration.ofSeconds(5), RetryPolicy.none()))
                .transactionCount(address, "latest").longValueExact();
    }

    /**
     * Once one request is charged past an unproven close authorization, the watchtower claims above
     * it with a voucher not above the charged total: the contract then refuses a cooperative close
     * at the older amount, the consumer has paid nothing it was not charged, and the channel pays
     * for requests again, concurrent ones included.
     */
    @Test
    void theWatchtowerClaimsAboveAnUnprovenCloseSoThatItCanNoLongerBeUsed() {
        Agent agent = openedAgent(BigInteger.valueOf(5_000_000));
        Http.Reply first = pay(agent, BigInteger.ZERO);
        assertThat(first.status()).isEqualTo(200);
        Http.Reply close = unsignedClose(agent.channelId);
        BigInteger authorized = new BigInteger(close.json().path("finalAmount").asText());
        byte[] authorization = Hex.decode(close.json().path("signature").asText());
        Http.Reply passing = pay(agent, charged(first));
        assertThat(passing.status()).as(passing.body()).isEqualTo(200);

        ChannelState claimed = ChannelStates.awaitState(history, agent.channelId,
                s -> s.claimed().compareTo(authorized) > 0, "the watchtower's claim above the authorization");
        assertThat(claimed.claimed()).as("no more than the consumer was charged").isEqualTo(charged(passing));
        assertThat(devnet().callCooperativeClose(agent.address(), agent.channelId, authorized, authorization).success())
                .as("the older authorization is void on-chain").isFalse();
        BigInteger ahead = charged(passing).add(BigInteger.valueOf(1_000_000));
        String streamVoucher = agent.nextVoucher(agent.authorise(ahead));
        CompletableFuture<Http.Reply> stream = CompletableFuture.supplyAsync(() -> agent.chat(streamVoucher,
                Agent.chatBody("echo-1", PROMPT, null, true)));
        ChannelStates.awaitState(history, agent.channelId, s -> !s.holds().isEmpty(), "the stream to be admitted");
        Http.Reply concurrent = pay(agent, ahead);
        assertThat(concurrent.status()).as("no rule once the authorization is void: %s", concurrent.body())
                .isEqualTo(200);
        assertThat(stream.join().status()).isEqualTo(200);
    }

    /**
     * A stranger asking for the close again gets the same authorization, free; at a new amount
     * (after the consumer's next request) it waits the interval (429 {@code rate_limited}, nothing
     * recorded), so it cannot have the provider claim after every request. The consumer's signed
     * close is never kept waiting.
     */
    @Test
    void aNewUnsignedAuthorizationOfAChannelWaitsTheInterval() {
        Agent agent = openedAgent(BigInteger.valueOf(5_000_000));
        Http.Reply first = pay(agent, BigInteger.ZERO);
        Http.Reply close = unsignedClose(agent.channelId);
        assertThat(close.status()).isEqualTo(200);
        assertThat(unsignedClose(agent.channelId).json()).isEqualTo(close.json());
        Http.Reply next = pay(agent, charged(first));
        assertThat(next.status()).isEqualTo(200);
        long authorizations = closeAuthorizations(agent.channelId);

        Http.Reply again = unsignedClose(agent.channelId);
        assertThat(again.status()).as(again.body()).isEqualTo(429);
        assertThat(again.json().path("error").path("code").asText()).isEqualTo("rate_limited");
        assertThat(again.raw().headers().firstValue("X-CHAN-Error")).hasValue("rate_limited");
        assertThat(Long.parseLong(again.raw().headers().firstValue("Retry-After").orElseThrow()))
                .isBetween(1L, properties.unsignedCloseInterval().toSeconds());
        assertThat(closeAuthorizations(agent.channelId)).as("nothing recorded").isEqualTo(authorizations);

        Http.Reply signed = Http.send(WalletSigning.signedPost(baseUrl(), "/v1/close-channel",
                "{\"channelId\":\"" + agent.channelId + "\"}", agent.signer(), Instant.now().getEpochSecond()));
        assertThat(signed.status()).as(signed.body()).isEqualTo(200);
    }

    private long closeAuthorizations(String channelId) {
        return history.events(channelId).stream().filter(e -> e.getPayload() instanceof CloseAuthorized).count();
    }
}
