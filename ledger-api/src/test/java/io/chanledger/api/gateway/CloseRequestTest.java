package io.chanledger.api.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.channels.command.ChannelHistory;
import io.chanledger.api.support.ChannelStates;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import io.chanledger.api.wallet.WalletSigning;
import io.chanledger.api.watchtower.Watchtower;
import io.chanledger.chain.devnet.Devnet;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.chain.rpc.RetryPolicy;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.domain.channel.MeteredRequest;
import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/**
 * Who can stop a channel at the gateway. Channel ids are public and real clients ask for the
 * close unsigned, so an unsigned close request is served, but it does not stop the consumer from
 * paying for more requests; what the consumer could gain by closing at that older amount after
 * more requests is bounded. A close request signed by the consumer stops the channel at once.
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

    private Agent openedAgent(BigInteger deposit) {
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
    private record UntilRefused(Http.Reply refusal, BigInteger total) {
    }

    private UntilRefused payUntilRefused(Agent agent, BigInteger total) {
        for (int i = 0; i < 50; i++) {
            Http.Reply reply = pay(agent, total);
            if (reply.status() != 200) {
                return new UntilRefused(reply, total);
            }
            total = charged(reply);
        }
        throw new AssertionError("fifty requests were served above an unproven close authorization");
    }

    /**
     * The consumer obtains an unsigned close authorization, takes more requests, then closes
     * on-chain at the older amount before any claim (the watchtower is held off by holding its
     * lock). The gateway serves at most the stated exposure above that amount; the provider keeps
     * the authorized amount and loses at most that exposure.
     */
    @Test
    void aConsumerClosingAtAnOlderAuthorizationTakesAtMostTheBoundedExposure() {
        BigInteger deposit = BigInteger.valueOf(5_000_000);
        Agent agent = openedAgent(deposit);
        Http.Reply first = pay(agent, BigInteger.ZERO);
        assertThat(first.status()).isEqualTo(200);
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
        BigInteger served = run.total().subtract(authorized);
        assertThat(served).as("served above the authorization").isPositive()
                .isLessThanOrEqualTo(MeteredRequest.DEFAULT_CLOSE_EXPOSURE);

        ChannelState state = ChannelStates.awaitState(history, agent.channelId,
                s -> s.status() == ChannelStatus.CLOSED, "the listener to record the close");
        assertThat(state.refund()).as("the consumer got back all above the older authorization")
                .isEqualTo(deposit.subtract(authorized));
        assertThat(state.chargedTotal().subtract(authorized)).as("what the provider lost: at most the exposure")
                .isEqualTo(served).isLessThanOrEqualTo(MeteredRequest.DEFAULT_CLOSE_EXPOSURE);
    }

    /**
     * A stranger's close costs nobody anything: the watchtower sends no transaction for it while
     * the consumer goes on paying below half the bound, and the consumer's own close afterwards is
     * at exactly what it was charged, however far its vouchers ran ahead.
     */
    @Test
    void aStrangersCloseMakesNoClaimAndTheConsumerPaysExactlyWhatItWasCharged() {
        devnet().setBalance(identity.address(), Devnet.GAS_MONEY);
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
        assertThat(new BigInteger(strangers.json().path("finalAmount").asText())).isEqualTo(charged);
        Http.Reply after = payAhead(agent);
        assertThat(after.status()).as(after.body()).isEqualTo(200);
        charged = charged(after);
        for (int round = 0; round < 3; round++) {
            watchtower.runOnce();
        }
        assertThat(transactionCount(identity.address())).as("no claim for a stranger's close").isEqualTo(providerNonce);
        assertThat(history.state(agent.channelId).orElseThrow().claimed()).isZero();

        Http.Reply own = unsignedClose(agent.channelId);
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
     * Once the channel is charged past an unproven close authorization by half the bound, the
     * watchtower claims above it with a voucher not above the charged total: the contract then
     * refuses a cooperative close at the older amount, the consumer has paid nothing it was not
     * charged, and the channel pays for requests again without a bound.
     */
    @Test
    void theWatchtowerClaimsAboveAnUnprovenCloseSoThatItCanNoLongerBeUsed() {
        devnet().setBalance(identity.address(), Devnet.GAS_MONEY);
        Agent agent = openedAgent(BigInteger.valueOf(5_000_000));
        Http.Reply first = pay(agent, BigInteger.ZERO);
        assertThat(first.status()).isEqualTo(200);
        Http.Reply close = unsignedClose(agent.channelId);
        BigInteger authorized = new BigInteger(close.json().path("finalAmount").asText());
        byte[] authorization = Hex.decode(close.json().path("signature").asText());
        Http.Reply last = first;
        BigInteger trigger = authorized.add(MeteredRequest.DEFAULT_CLOSE_EXPOSURE.shiftRight(1));
        while (charged(last).compareTo(trigger) < 0) {
            watchtower.runOnce();
            assertThat(history.state(agent.channelId).orElseThrow().claimed()).as("no claim below half the bound")
                    .isZero();
            last = pay(agent, charged(last));
            assertThat(last.status()).as(last.body()).isEqualTo(200);
        }

        watchtower.runOnce();
        ChannelState claimed = ChannelStates.awaitState(history, agent.channelId,
                s -> s.claimed().compareTo(authorized) > 0, "the watchtower's claim above the authorization");
        assertThat(claimed.claimed()).as("no more than the consumer was charged")
                .isLessThanOrEqualTo(claimed.chargedTotal());
        assertThat(devnet().callCooperativeClose(agent.address(), agent.channelId, authorized, authorization).success())
                .as("the older authorization is void on-chain").isFalse();
        for (int i = 0; i < 8; i++) {
            Http.Reply reply = pay(agent, charged(last).max(claimed.chargedTotal()));
            assertThat(reply.status()).as("no bound once the authorization is void: %s", reply.body()).isEqualTo(200);
            last = reply;
        }
    }
}
