package io.chanledger.api.provider.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import io.chanledger.domain.channel.HoldRaised;
import io.chanledger.domain.channel.OpenChannel;
import io.chanledger.domain.channel.RequestSettled;
import io.chanledger.domain.channel.VoucherAccepted;
import io.chanledger.domain.eip712.DigestSigner;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;

/**
 * What the gateway does with an OpenAI-compatible upstream's answers: failures cost nothing, a
 * cost beyond what the voucher covers is charged only up to the voucher, a stream stops where its
 * hold can grow no further, and the request goes up exactly as the client sent it, with the API
 * key. The gateway's controller is wired to a stub upstream on loopback, with the application's
 * own ledger, metering and error handling.
 */
class UpstreamOutcomeTest extends LedgerIntegrationTest {

    private static final BigInteger DEPOSIT = BigInteger.valueOf(3_000_000);

    @Autowired
    CommandGateway commands;
    @Autowired
    ChannelHistory history;
    @Autowired
    ProviderIdentity identity;
    @Autowired
    PriceList prices;
    @Autowired
    Metering metering;
    @Autowired
    ObjectMapper json;
    @Autowired
    ApplicationContext context;
    @Autowired
    PaidAnswers answers;

    private final StubUpstream stub = new StubUpstream();
    private final DigestSigner consumer = TestKeys.wallet("upstream-consumer-" + System.nanoTime());
    private MockMvc gateway;
    private String channelId;

    @BeforeEach
    void wireGatewayToTheStub() {
        OpenAiUpstream upstream = new OpenAiUpstream(stub.baseUrl(), "test-upstream-key", Duration.ofSeconds(2),
                Duration.ofSeconds(10), json);
        gateway = StandaloneGateway.over(upstream, context);
        channelId = Channels.randomChannelId();
        commands.sendAndWait(new OpenChannel(channelId, consumer.address(), identity.address(), DEPOSIT,
                Instant.now().getEpochSecond() + 86_400, Channels.nextChainRef()));
    }

    @AfterEach
    void stopStub() {
        stub.close();
    }

    private MockHttpServletResponse chat(long amount, long nonce, String body) throws Exception {
        return gateway.perform(post("/v1/chat/completions").contentType("application/json").content(body)
                        .header("X-CHAN-Voucher", Channels.voucherJson(consumer, channelId, amount, nonce)))
                .andReturn().getResponse();
    }

    @Test
    void anUpstreamFailureIsA502AndChargesNothing() throws Exception {
        stub.mode = StubUpstream.Mode.FAIL;

        MockHttpServletResponse reply = chat(100_000, 1, Agent.chatBody("echo-1", "hi", null, false));

        assertThat(reply.getStatus()).isEqualTo(502);
        assertThat(reply.getHeader("X-CHAN-Error")).isEqualTo("upstream_error");
        assertThat(json.readTree(reply.getContentAsString()).path("error").path("type").asText()).isEqualTo("upstream_error");
        assertThat(reply.getContentAsString()).doesNotContain("internal details");
        var payloads = history.events(channelId).stream().map(e -> e.getPayload()).toList();
        assertThat(payloads).hasAtLeastOneElementOfType(VoucherAccepted.class);
        assertThat(payloads).filteredOn(RequestSettled.class::isInstance).singleElement()
                .satisfies(e -> assertThat(((RequestSettled) e).charged()).isZero());
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isZero();
    }

    @Test
    void anUpstreamFailureOfAStreamIsA502AndChargesNothing() throws Exception {
        stub.mode = StubUpstream.Mode.FAIL;

        MockHttpServletResponse reply = chat(100_000, 1, Agent.chatBody("echo-1", "hi", null, true));

        assertThat(reply.getStatus()).isEqualTo(502);
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isZero();
    }

    @Test
    void aCostBeyondWhatTheVoucherCoversIsChargedUpToTheVoucherAndTheAnswerDelivered() throws Exception {
        String longAnswer = "word ".repeat(400).trim();
        long output = Tokenizer.forModel("echo-1").count(longAnswer);
        stub.mode = StubUpstream.Mode.RAW;
        stub.rawBody = "{\"id\":\"x\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":"
                + "{\"role\":\"assistant\",\"content\":\"" + longAnswer + "\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":" + output + "}}";
        long amount = GatewayPrices.hold(prices, "echo-1", "hi", null).longValueExact() + 500;

        MockHttpServletResponse reply = chat(amount, 1, Agent.chatBody("echo-1", "hi", null, false));

        BigInteger cost = prices.model("echo-1").orElseThrow().cost(5, output);
        assertThat(cost).as("the answer costs more than the voucher covers").isGreaterThan(BigInteger.valueOf(amount));
        assertThat(reply.getStatus()).isEqualTo(200);
        assertThat(reply.getHeader("X-CHAN-Error")).isNull();
        assertThat(reply.getHeader("X-CHAN-Cost")).isEqualTo(Long.toString(amount));
        assertThat(reply.getHeader("X-CHAN-Total")).isEqualTo(Long.toString(amount));
        assertThat(reply.getHeader("X-CHAN-Required")).as("the answer's cost").isEqualTo(cost.toString());
        assertThat(reply.getHeader("X-CHAN-Provided")).as("what the voucher left for it").isEqualTo(Long.toString(amount));
        assertThat(reply.getContentAsString()).contains(longAnswer);
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isEqualTo(BigInteger.valueOf(amount));
    }

    @Test
    void aStreamRaisesItsHoldAndStopsBeforeTheChunkTheVoucherCannotCover() throws Exception {
        stub.mode = StubUpstream.Mode.SLOW_STREAM;
        PriceList.ModelRate rate = prices.model("echo-1").orElseThrow();
        long input = GatewayPrices.inputTokens("echo-1", "hi");
        // every chunk " wordN" is two tokens: the voucher covers thirty chunks, ten more than its first hold
        BigInteger amount = rate.cost(input, 60);

        MockHttpServletResponse reply = chat(amount.longValueExact(), 1, Agent.chatBody("echo-1", "hi", null, true));

        String body = reply.getContentAsString();
        long chunks = body.lines().filter(l -> l.startsWith("data: {")).count();
        assertThat(reply.getStatus()).isEqualTo(200);
        assertThat(chunks).isEqualTo(30);
        assertThat(body).contains(": X-CHAN-Error: insufficient_funds_post", "data: [DONE]", ": X-CHAN-Cost: " + amount);
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isEqualTo(amount);
        assertThat(history.events(channelId).stream().map(e -> e.getPayload()))
                .filteredOn(HoldRaised.class::isInstance).singleElement()
                .satisfies(e -> assertThat(((HoldRaised) e).hold()).isEqualTo(amount));
        await("the upstream stream to be hung up").atMost(Duration.ofSeconds(20)).until(stub.clientHungUp::get);
    }

    @Test
    void theUpstreamsReportedUsageIsWhatIsChargedWithinWhatWasSentAndDelivered() throws Exception {
        long input = GatewayPrices.inputTokens("echo-1", "hi");
        stub.promptTokens = input + 3;
        stub.completionTokens = 4;

        MockHttpServletResponse reply = chat(100_000, 1, Agent.chatBody("echo-1", "hi", null, false));

        BigInteger cost = prices.model("echo-1").orElseThrow().cost(input + 3, 4);
        assertThat(reply.getStatus()).isEqualTo(200);
        assertThat(reply.getHeader("X-CHAN-Cost")).as("not the gateway's own counts").isEqualTo(cost.toString());
        assertThat(json.readTree(reply.getContentAsString()).path("choices").path(0).path("message").path("content")
                .asText()).isEqualTo("stub answer");
    }

    @Test
    void theRequestGoesUpstreamExactlyAsTheClientSentItWithTheApiKey() throws Exception {
        String sent = "{ \"model\": \"echo-1\",\n  \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}],"
                + " \"temperature\": 0.70 }";

        assertThat(chat(100_000, 1, sent).getStatus()).isEqualTo(200);

        assertThat(stub.lastAuthorization).isEqualTo("Bearer test-upstream-key");
        assertThat(stub.lastBody).isEqualTo(sent);
    }

    @Test
    void aStreamGoesUpstreamExactlyAsTheClientSentIt() throws Exception {
        stub.mode = StubUpstream.Mode.SLOW_STREAM;
        String sent = Agent.chatBody("echo-1", "hi", null, true);
        long hold = GatewayPrices.hold(prices, "echo-1", "hi", null).longValueExact();

        assertThat(chat(hold, 1, sent).getStatus()).isEqualTo(200);

        assertThat(stub.lastBody).isEqualTo(sent).doesNotContain("max_tokens", "stream_options");
    }
}
