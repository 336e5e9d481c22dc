package io.chanledger.api.provider.gateway;

import static io.chanledger.api.provider.gateway.GatewayPrices.ECHO_ANSWER_TOKENS;
import static io.chanledger.api.provider.gateway.GatewayPrices.cost;
import static io.chanledger.api.provider.gateway.GatewayPrices.echoAnswer;
import static io.chanledger.api.provider.gateway.GatewayReplies.header;
import static io.chanledger.api.support.ChannelStates.awaitState;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.provider.gateway.GatewayReplies.Sse;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.testsupport.Devnet;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.domain.channel.CloseKind;
import io.chanledger.domain.eip712.Hex;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/**
 * The whole life of a paid channel, with web3j as the agent on the devnet: payment discovery,
 * open, paid requests plain and streamed, close authorization, cooperative close on-chain, and
 * the token balances against the ledger's figures.
 */
public class GatewayFlowTest extends LedgerIntegrationTest {

    @Autowired
    ProviderIdentity identity;
    @Autowired
    PriceList prices;
    @Autowired
    ChannelHistory history;
    @Autowired
    MeterRegistry meters;

    @Test
    void aRequestWithoutAVoucherIsAnsweredWithThePaymentTerms() {
        Agent agent = Agent.create(devnet(), baseUrl());
        double refusedBefore = meters.counter("chan.gateway.requests", "outcome", "voucher_required").count();
        Http.Reply reply = agent.chat(null, "");

        assertThat(reply.status()).isEqualTo(402);
        assertThat(meters.counter("chan.gateway.requests", "outcome", "voucher_required").count())
                .isEqualTo(refusedBefore + 1);
        var headers = reply.raw().headers();
        assertThat(headers.firstValue("X-Payment-Protocol")).contains("chan-v2");
        assertThat(headers.firstValue("X-Payment-Provider")).contains(identity.checksumAddress());
        assertThat(headers.firstValue("X-Payment-Contract")).contains(Hex.toChecksumAddress(devnet().channelAddress()));
        assertThat(headers.firstValue("X-Payment-Chain")).contains("137");
        assertThat(headers.firstValue("X-Payment-Signing")).contains(baseUrl() + "/api/chan/signing");
        assertThat(headers.firstValue("X-Payment-Docs")).contains(baseUrl() + "/v1/docs");
        assertThat(headers.firstValue("X-CHAN-Error")).contains("voucher_required");
        JsonNode error = reply.json().path("error");
        assertThat(error.path("type").asText()).isEqualTo("payment_required");
        assertThat(error.path("code").asText()).isEqualTo("voucher_required");
        assertThat(error.path("message").asText()).isNotBlank();
    }

    @Test
    void anAgentPaysStreamsClosesAndTheChainAgreesWithTheLedgerToTheBaseUnit() throws Exception {
        Devnet devnet = devnet();
        String provider = identity.address();
        Agent agent = Agent.create(devnet, baseUrl());
        BigInteger deposit = BigInteger.valueOf(5_000_000);
        BigInteger providerBefore = devnet.balanceOf(provider);
        BigInteger feesBefore = devnet.balanceOf(Devnet.FEE_RECIPIENT);

        agent.open(provider, deposit, 86_400);
        BigInteger consumerAfterOpen = devnet.balanceOf(agent.address());
        awaitState(history, agent.channelId, s -> true, "the ledger to record the channel");

        // vouchers budgeted as the marketplace's client does; no max_tokens unless the agent asks for one
        PriceList.ModelRate rate = prices.model("echo-1").orElseThrow();
        BigInteger total = BigInteger.ZERO;
        List<String> prompts = List.of("hello there", "what is a payment channel, in one line?", "thanks, bye now");
        for (String prompt : prompts) {
            BigInteger voucher = agent.budget(ClientBudget.estimate(rate, prompt, null));
            Http.Reply reply = agent.chat(agent.nextVoucher(voucher), Agent.chatBody("echo-1", prompt, null, false));

            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            assertThat(reply.contentType()).startsWith("application/json");
            BigInteger cost = cost(prices, "echo-1", prompt, ECHO_ANSWER_TOKENS);
            total = total.add(cost);
            assertThat(reply.json().path("choices").path(0).path("message").path("content").asText())
                    .isEqualTo("Echo: " + prompt);
            assertThat(header(reply, "X-CHAN-Cost")).isEqualTo(cost.toString());
            assertThat(header(reply, "X-CHAN-Total")).isEqualTo(total.toString());
            assertThat(header(reply, "X-CHAN-Remaining")).isEqualTo(deposit.subtract(total).toString());
            assertThat(header(reply, "X-CHAN-Channel")).isEqualTo(agent.channelId);
        }
        List<Integer> limits = Arrays.asList(16, null);
        List<String> streamed = List.of("stream me a few words please", "and one more time");
        for (int i = 0; i < streamed.size(); i++) {
            String prompt = streamed.get(i);
            Integer limit = limits.get(i);
            BigInteger voucher = agent.budget(ClientBudget.estimate(rate, prompt, limit));
            Http.Reply reply = agent.chat(agent.nextVoucher(voucher), Agent.chatBody("echo-1", prompt, limit, true));

            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            assertThat(reply.contentType()).startsWith("text/event-stream");
            Sse sse = Sse.parse(reply.body());
            long answerLimit = limit == null ? ECHO_ANSWER_TOKENS : limit;
            BigInteger cost = cost(prices, "echo-1", prompt, answerLimit);
            total = total.add(cost);
            assertThat(sse.text()).isEqualTo(echoAnswer("echo-1", prompt, answerLimit));
            assertThat(sse.doneBeforeComments()).isTrue();
            assertThat(sse.comment("X-CHAN-Cost")).isEqualTo(cost.toString());
            assertThat(sse.comment("X-CHAN-Total")).isEqualTo(total.toString());
            assertThat(sse.comment("X-CHAN-Remaining")).isEqualTo(deposit.subtract(total).toString());
            assertThat(header(reply, "X-CHAN-Channel")).isEqualTo(agent.channelId);
        }

        Http.Reply close = Http.postJson(baseUrl() + "/v1/close-channel", "{\"channelId\":\"" + agent.channelId + "\"}");
        assertThat(close.status()).as(close.body()).isEqualTo(200);
        BigInteger finalAmount = new BigInteger(close.json().path("finalAmount").asText());
        assertThat(finalAmount).isEqualTo(total);
        assertThat(close.json().path("channelId").asText()).isEqualTo(agent.channelId);
        byte[] signature = Hex.decode(close.json().path("signature").asText());

        TransactionReceipt closed = devnet.cooperativeClose(agent.wallet, agent.channelId, finalAmount, signature);
        assertThat(closed.isStatusOK()).isTrue();

        ChannelState state = awaitState(history, agent.channelId, s -> s.status() == ChannelStatus.CLOSED,
                "the listener to record the cooperative close");
        BigInteger fee = finalAmount.multiply(Devnet.FEE_BPS).divide(BigInteger.valueOf(10_000));
        assertThat(state.closeKind()).isEqualTo(CloseKind.COOPERATIVE);
        assertThat(state.chargedTotal()).isEqualTo(total);
        assertThat(state.claimed()).isEqualTo(finalAmount);
        assertThat(state.feesPaid()).isEqualTo(fee);
        assertThat(state.refund()).isEqualTo(deposit.subtract(finalAmount));
        assertThat(state.authorizedCloseAmount()).isEqualTo(finalAmount);
        assertThat(devnet.balanceOf(provider).subtract(providerBefore)).isEqualTo(state.claimed().subtract(state.feesPaid()));
        assertThat(devnet.balanceOf(Devnet.FEE_RECIPIENT).subtract(feesBefore)).isEqualTo(state.feesPaid());
        assertThat(devnet.balanceOf(agent.address()).subtract(consumerAfterOpen)).isEqualTo(state.refund());
    }
}
