package io.chanledger.api.provider.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import io.chanledger.api.ledger.wallet.WalletSigning;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.OpenChannel;
import io.chanledger.domain.channel.RequestSettled;
import io.chanledger.domain.eip712.DigestSigner;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;

/**
 * A stalled upstream no longer holds a channel: the gateway's chat endpoint, with the
 * application's own ledger and metering, over an OpenAI-compatible upstream on loopback that
 * answers part of a request and then stalls with the connection open. The request ends at its
 * deadline, is settled for what was delivered (nothing, unless a stream sent some), leaves no
 * hold on the channel, and the consumer's own signed close, refused while the request ran, is
 * authorized by the running service right after.
 */
class UpstreamDeadlineTest extends LedgerIntegrationTest {

    /** Two seconds for every wait on the upstream; the whole-stream limit is never reached here. */
    private static final OpenAiUpstream.Deadlines DEADLINES = new OpenAiUpstream.Deadlines(Duration.ofSeconds(2),
            Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofSeconds(30));
    /** What the gateway may add to a deadline (settling, a loaded machine); the stalls lasted 600 s. */
    private static final Duration SLACK = Duration.ofSeconds(4);
    private static final String MODEL = "echo-1";
    private static final String PROMPT = "hi";

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

    private final StallingUpstream stalling = new StallingUpstream();
    private final DigestSigner consumer = TestKeys.wallet("deadline-consumer-" + System.nanoTime());
    private MockMvc gateway;
    private String channelId;

    @BeforeEach
    void wireGatewayToTheStallingUpstream() {
        gateway = StandaloneGateway.over(new OpenAiUpstream(stalling.baseUrl(), "", Duration.ofSeconds(2), DEADLINES,
                json), context);
        channelId = Channels.randomChannelId();
        commands.sendAndWait(new OpenChannel(channelId, consumer.address(), identity.address(),
                BigInteger.valueOf(3_000_000), Instant.now().getEpochSecond() + 86_400, Channels.nextChainRef()));
    }

    @AfterEach
    void stopStub() {
        stalling.close();
    }

    private MockHttpServletResponse chat(boolean stream) throws Exception {
        return gateway.perform(post("/v1/chat/completions").contentType("application/json")
                        .content(Agent.chatBody(MODEL, PROMPT, null, stream))
                        .header("X-CHAN-Voucher", Channels.voucherJson(consumer, channelId, 100_000, 1)))
                .andReturn().getResponse();
    }

    private Http.Reply consumersClose() {
        return Http.send(WalletSigning.signedPost(baseUrl(), "/v1/close-channel",
                "{\"channelId\":\"" + channelId + "\"}", consumer, Instant.now().getEpochSecond()));
    }

    private RequestSettled settlement() {
        List<RequestSettled> settled = history.events(channelId).stream().map(e -> e.getPayload())
                .filter(RequestSettled.class::isInstance).map(RequestSettled.class::cast).toList();
        assertThat(settled).as("the request settled once").hasSize(1);
        return settled.get(0);
    }

    private void assertNoHoldLeft() {
        ChannelState state = history.state(channelId).orElseThrow();
        assertThat(state.heldAt(Instant.now().getEpochSecond())).as("what running requests hold").isZero();
    }

    /** A request's reply and how long it took. */
    private record Timed(MockHttpServletResponse reply, Duration took) {
    }

    /**
     * Sends the request from another thread; while the upstream stalls, the request holds room on
     * the channel and the consumer's close is refused (when the close was answered before the
     * request's deadline: on a loaded machine the first close may take longer than that).
     */

    private Timed chatWhileTheConsumerTriesToClose(boolean stream) throws Exception {
        long started = System.nanoTime();
        CompletableFuture<MockHttpServletResponse> reply = CompletableFuture.supplyAsync(() -> {
            try {
                return chat(stream);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(stalling.awaitStall(10)).as("the upstream stalled").isTrue();
        BigInteger held = history.state(channelId).orElseThrow().heldAt(Instant.now().getEpochSecond());
        assertThat(reply).as("the request runs while the upstream stalls").isNotDone();
        assertThat(held).as("what the running request holds").isPositive();
        Http.Reply early = consumersClose();
        if (!reply.isDone()) {
            assertThat(early.status()).as(early.body()).isEqualTo(409);
            assertThat(early.json().path("error").path("message").asText()).contains("still running");
        }
        MockHttpServletResponse done = reply.get(60, TimeUnit.SECONDS);
        return new Timed(done, Duration.ofNanos(System.nanoTime() - started));
    }

    @Test
    void anAnswerThatStallsAfterItsHeadersIsA504AtItsDeadlineChargesNothingAndFreesTheChannel() throws Exception {
        stalling.mode = StallingUpstream.Mode.HEADERS_THEN_STALL;

        Timed timed = chatWhileTheConsumerTriesToClose(false);

        assertThat(timed.took()).isLessThan(DEADLINES.answer().plus(SLACK));
        assertUpstreamTimeoutAnswer(timed.reply());
        assertThat(settlement().charged()).isZero();
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isZero();
        assertNoHoldLeft();
        assertThat(stalling.awaitHangUp(5)).as("the upstream connection closed").isTrue();
        Http.Reply close = consumersClose();
        assertThat(close.status()).as(close.body()).isEqualTo(200);
        assertThat(close.json().path("finalAmount").asText()).isEqualTo("0");
    }

    @Test
    void anAnswerWhoseHeadersNeverComeIsA504AtItsDeadlineChargesNothingAndFreesTheChannel() throws Exception {
        stalling.mode = StallingUpstream.Mode.NO_HEADERS;

        Timed timed = chatWhileTheConsumerTriesToClose(false);

        assertThat(timed.took()).isLessThan(DEADLINES.answer().plus(SLACK));
        assertUpstreamTimeoutAnswer(timed.reply());
        assertThat(settlement().charged()).isZero();
        assertNoHoldLeft();
        assertThat(stalling.awaitHangUp(5)).as("the upstream connection closed").isTrue();
        Http.Reply close = consumersClose();
        assertThat(close.status()).as(close.body()).isEqualTo(200);
    }

    @Test
    void aStreamThatGoesQuietEndsAfterTheIdleLimitChargedForWhatWasDelivered() throws Exception {
        stalling.mode = StallingUpstream.Mode.CHUNKS_THEN_STALL;
        stalling.chunksBeforeStall = 3;

        Timed timed = chatWhileTheConsumerTriesToClose(true);

        assertThat(timed.took()).isLessThan(DEADLINES.streamIdle().plus(SLACK));
        String body = timed.reply().getContentAsString();
        assertThat(timed.reply().getStatus()).isEqualTo(200);
        assertThat(body.lines().filter(l -> l.startsWith("data: {\"choices\"")).toList()).containsExactly(
                "data: " + StallingUpstream.chunk(0), "data: " + StallingUpstream.chunk(1),
                "data: " + StallingUpstream.chunk(2));
        JsonNode error = json.readTree(body.lines().filter(l -> l.startsWith("data: {\"error\"")).findFirst()
                .orElseThrow().substring("data: ".length()));
        assertThat(error.path("error").path("code").asText()).isEqualTo("upstream_timeout");
        assertThat(body).contains("data: [DONE]");
        BigInteger delivered = prices.model(MODEL).orElseThrow().cost(GatewayPrices.inputTokens(MODEL, PROMPT),
                Tokenizer.forModel(MODEL).count(" word0 word1 word2"));
        assertThat(body).contains(": X-CHAN-Cost: " + delivered);
        assertThat(settlement().charged()).isEqualTo(delivered);
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isEqualTo(delivered);
        assertNoHoldLeft();
        assertThat(stalling.awaitHangUp(5)).as("the upstream connection closed").isTrue();
        Http.Reply close = consumersClose();
        assertThat(close.status()).as(close.body()).isEqualTo(200);
        assertThat(close.json().path("finalAmount").asText()).isEqualTo(delivered.toString());
    }

    /**
     * The idle limit holds from the first event on, also when it is shorter than the first-byte
     * limit: the watchdog's check, due at the first-byte deadline when the stream was sent, is
     * brought forward when the wait for the next event starts (it used to stay there, so such a
     * stream was cut at its first-byte deadline, tens of seconds here, instead of its idle limit).
     */
    @Test
    void aStreamThatGoesQuietAfterItsFirstEventEndsAtItsIdleLimitNotItsLongerFirstByteLimit() throws Exception {
        Duration idle = Duration.ofSeconds(1);
        gateway = StandaloneGateway.over(new OpenAiUpstream(stalling.baseUrl(), "", Duration.ofSeconds(2),
                new OpenAiUpstream.Deadlines(Duration.ofSeconds(2), Duration.ofSeconds(30), idle,
                        Duration.ofSeconds(60)), json), context);
        stalling.mode = StallingUpstream.Mode.CHUNKS_THEN_STALL;
        stalling.chunksBeforeStall = 1;

        MockHttpServletResponse done = chat(true);
        Duration quiet = Duration.ofNanos(System.nanoTime() - stalling.stalledAt);

        String body = done.getContentAsString();
        assertThat(body.lines().filter(l -> l.startsWith("data: {\"choices\"")).toList())
                .containsExactly("data: " + StallingUpstream.chunk(0));
        assertThat(body).contains("\"code\":\"upstream_timeout\"", "data: [DONE]");
        // the idle limit's wait starts as the first event is read, a moment before the stub notes its stall;
        // the cut comes at that limit, not at the first-byte limit of 30 s
        assertThat(quiet).isGreaterThanOrEqualTo(idle.minusMillis(100)).isLessThan(idle.plusMillis(900));
        BigInteger delivered = prices.model(MODEL).orElseThrow().cost(GatewayPrices.inputTokens(MODEL, PROMPT),
                Tokenizer.forModel(MODEL).count(" word0"));
        assertThat(settlement().charged()).isEqualTo(delivered);
        assertNoHoldLeft();
        assertThat(stalling.awaitHangUp(5)).as("the upstream connection closed").isTrue();
    }

    private void assertUpstreamTimeoutAnswer(MockHttpServletResponse reply) throws Exception {
        assertThat(reply.getStatus()).as(reply.getContentAsString()).isEqualTo(504);
        assertThat(reply.getHeader("X-CHAN-Error")).as(reply.getContentAsString()).isEqualTo("upstream_timeout");
        JsonNode error = json.readTree(reply.getContentAsString()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("upstream_timeout");
        assertThat(error.path("type").asText()).as("the kind of error, as for every upstream failure").isEqualTo("upstream_error");
        assertThat(error.path("message").asText()).contains("nothing was charged");
    }
}
