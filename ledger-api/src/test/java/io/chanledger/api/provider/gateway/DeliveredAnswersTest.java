package io.chanledger.api.provider.gateway;

import static io.chanledger.api.provider.gateway.GatewayReplies.header;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.api.ledger.channels.command.VoucherAdmission;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.support.AdminReads;
import io.chanledger.api.support.ChannelStates;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.MeteredRequest;
import io.chanledger.domain.channel.OpenChannel;
import io.chanledger.domain.channel.RequestSettled;
import io.chanledger.domain.channel.SignedVoucher;
import io.chanledger.domain.eip712.DigestSigner;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;

/**
 * A request is charged only for an answer delivered to the agent or kept for it: an agent that
 * gave up waiting gets its answer by re-sending the voucher and pays once; a 200 that is not an
 * answer costs nothing; a stream is charged on the text it delivered, whatever usage the upstream
 * claims; every answer carries {@code usage}; the hold of a request no process serves any more
 * does not stay on its channel. Figures are read from the ledger's history and the channel read
 * model.
 */
class DeliveredAnswersTest extends LedgerIntegrationTest {

    private static final BigInteger DEPOSIT = BigInteger.valueOf(3_000_000);
    private static final ObjectMapper JSON = new ObjectMapper();

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
    HeldRequestRelease release;
    @Autowired
    VoucherAdmission admission;
    @Autowired
    DataSource dataSource;

    private final StubUpstream stub = new StubUpstream();
    private final DigestSigner consumer = TestKeys.wallet("delivery-consumer-" + System.nanoTime());
    private MockMvc stubGateway;
    private String channelId;

    @BeforeEach
    void openChannel() {
        OpenAiUpstream upstream = new OpenAiUpstream(stub.baseUrl(), null, Duration.ofSeconds(2),
                Duration.ofSeconds(10), json);
        stubGateway = StandaloneGateway.over(upstream, context);
        channelId = Channels.randomChannelId();
        commands.sendAndWait(new OpenChannel(channelId, consumer.address(), identity.address(), DEPOSIT,
                Instant.now().getEpochSecond() + 86_400, Channels.nextChainRef()));
    }

    @AfterEach
    void stopStub() {
        stub.close();
    }

    // --- an answer the agent did not receive is kept for its voucher ---

    @Test
    void anAgentThatGaveUpWaitingGetsItsAnswerByResendingTheVoucherAndPaysOnce() throws Exception {
        String voucher = Channels.voucherJson(consumer, channelId, 100_000, 1);
        String body = Agent.serviceBody("page-fetch", "{\"url\":\"https://example.com/" + UUID.randomUUID() + "/late\"}");
        HttpClient impatient = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl() + "/v1/chat/completions"))
                .timeout(Duration.ofMillis(150)).header("Content-Type", "application/json")
                .header("X-CHAN-Voucher", voucher).POST(HttpRequest.BodyPublishers.ofString(body)).build();

        assertThatThrownBy(() -> impatient.send(request, HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(HttpTimeoutException.class);
        BigInteger price = BigInteger.valueOf(20_000);
        ChannelStates.awaitState(history, channelId, s -> s.chargedTotal().equals(price),
                "the late answer to be settled");

        Http.Reply again = chat(voucher, body);

        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(header(again, "X-CHAN-Replay")).isEqualTo("true");
        assertThat(header(again, "X-CHAN-Cost")).isEqualTo(price.toString());
        assertThat(header(again, "X-CHAN-Total")).isEqualTo(price.toString());
        assertThat(again.json().path("choices").path(0).path("message").path("content").asText()).contains("# Late page");
        assertThat(again.json().path("usage").path("total_tokens").isIntegralNumber()).isTrue();
        assertThat(settlements()).singleElement().satisfies(s -> assertThat(s.charged()).isEqualTo(price));
        assertThat(readModel().path("chargedTotal").asText()).isEqualTo(price.toString());
    }

    @Test
    void reSendingAnAnsweredVoucherAnswersTheSameAndChargesNothingAgainWhileItIsKept() throws Exception {
        String voucher = Channels.voucherJson(consumer, channelId, 100_000, 1);
        String body = Agent.chatBody("echo-1", "keep this answer", null, false);
        Http.Reply first = chat(voucher, body);
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        String charged = header(first, "X-CHAN-Cost");

        Http.Reply again = chat(voucher, body);
        Http.Reply otherBody = chat(voucher, Agent.chatBody("echo-1", "something else", null, false));

        assertThat(again.status()).isEqualTo(200);
        assertThat(again.body()).isEqualTo(first.body());
        for (String name : List.of("X-CHAN-Cost", "X-CHAN-Total", "X-CHAN-Remaining", "X-CHAN-Channel")) {
            assertThat(header(again, name)).as(name).isEqualTo(header(first, name));
        }
        assertThat(otherBody.body()).as("the voucher paid for one answer: that is what it gets").isEqualTo(first.body());
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isEqualTo(new BigInteger(charged));
        assertThat(settlements()).hasSize(1);
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM gateway_answer WHERE channel_id = ?", Long.class,
                channelId)).isEqualTo(1);

        // once it is no longer kept, the voucher is a used one again
        jdbc.update("UPDATE gateway_answer SET answered_at = answered_at - INTERVAL '1 hour' WHERE channel_id = ?",
                channelId);
        Http.Reply expired = chat(voucher, body);
        assertThat(expired.status()).isEqualTo(402);
        assertThat(header(expired, "X-CHAN-Error")).isEqualTo("invalid_nonce");
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isEqualTo(new BigInteger(charged));
    }

    // --- a 200 that is not an answer costs nothing ---

    @Test
    void aChatUpstreams200WithoutAnAnswerIsAnUpstreamErrorAndChargesNothing() throws Exception {
        stub.mode = StubUpstream.Mode.RAW;
        String[] nonAnswers = {
                "{}",
                "{\"error\":{\"message\":\"model overloaded\",\"type\":\"server_error\"}}",
                "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":null}}],"
                        + "\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":0}}",
                "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"cut",
                "<html><body>Bad gateway</body></html>"};
        long nonce = 0;
        for (String nonAnswer : nonAnswers) {
            stub.rawBody = nonAnswer;
            MockHttpServletResponse reply = stubChat(100_000, ++nonce, Agent.chatBody("echo-1", "hi", null, false));
            assertThat(reply.getStatus()).as(nonAnswer).isEqualTo(502);
            assertThat(reply.getHeader("X-CHAN-Error")).isEqualTo("upstream_error");
            assertThat(json.readTree(reply.getContentAsString()).path("error").path("code").asText())
                    .isEqualTo("upstream_error");
        }
        assertThat(settlements()).hasSize(nonAnswers.length).allSatisfy(s -> assertThat(s.charged()).isZero());
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isZero();
    }

    // --- streams are charged on what they delivered ---

    @Test
    void aStreamIsChargedOnTheDeliveredTextNotOnUsageTheClientNeverSaw() throws Exception {
        stub.mode = StubUpstream.Mode.STREAM_CLAIMING_USAGE;
        stub.completionTokens = 100_000_000;
        PriceList.ModelRate rate = prices.model("echo-1").orElseThrow();

        MockHttpServletResponse reply = stubChat(100_000, 1, Agent.chatBody("echo-1", "hi", null, true));

        GatewayReplies.Sse sse = GatewayReplies.Sse.parse(reply.getContentAsString());
        long delivered = Tokenizer.forModel("echo-1").count(sse.text());
        BigInteger cost = rate.cost(GatewayPrices.inputTokens("echo-1", "hi"), delivered);
        assertThat(sse.text()).isEqualTo(" word0 word1 word2 word3 word4");
        assertThat(reply.getContentAsString()).doesNotContain("usage", "100000000");
        assertThat(sse.comment("X-CHAN-Cost")).isEqualTo(cost.toString());
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isEqualTo(cost);
    }

    /**
     * A whole answer's usage is in the body the agent receives, but an upstream can still report
     * tokens it never sent: the charge is capped at the gateway's own counts of the input and of
     * the delivered text (with the documented slack), far below what the lie would have taken.
     */
    @Test
    void aWholeAnswerIsNeverChargedForMoreTokensThanWereSentAndDelivered() throws Exception {
        stub.promptTokens = 100_000_000;
        stub.completionTokens = 100_000_000;
        PriceList.ModelRate rate = prices.model("echo-1").orElseThrow();

        MockHttpServletResponse reply = stubChat(500_000, 1, Agent.chatBody("echo-1", "hi", null, false));

        long input = GatewayPrices.inputTokens("echo-1", "hi");
        long output = Tokenizer.forModel("echo-1").count("stub answer");
        BigInteger capped = rate.cost(input + input / 4 + 16, output + output / 4 + 16);
        assertThat(reply.getStatus()).isEqualTo(200);
        assertThat(reply.getHeader("X-CHAN-Cost")).isEqualTo(capped.toString());
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isEqualTo(capped)
                .isLessThan(BigInteger.valueOf(1_000));
        assertThat(json.readTree(reply.getContentAsString()).path("usage").path("completion_tokens").asLong())
                .as("the usage the agent reads is what it was charged for").isEqualTo(output + output / 4 + 16);
    }

    @Test
    void aStreamThatAskedForUsageGetsTheBilledCountsInItsLastChunk() throws Exception {
        stub.mode = StubUpstream.Mode.STREAM_CLAIMING_USAGE;
        stub.completionTokens = 100_000_000;
        PriceList.ModelRate rate = prices.model("echo-1").orElseThrow();
        String body = Agent.chatBody("echo-1", "hi", null, true)
                .replace("\"stream\":true", "\"stream\":true,\"stream_options\":{\"include_usage\":true}");

        MockHttpServletResponse reply = stubChat(100_000, 1, body);

        GatewayReplies.Sse sse = GatewayReplies.Sse.parse(reply.getContentAsString());
        long input = GatewayPrices.inputTokens("echo-1", "hi");
        long delivered = Tokenizer.forModel("echo-1").count(sse.text());
        JsonNode last = sse.chunks().get(sse.chunks().size() - 1);
        assertThat(last.path("choices").isEmpty()).isTrue();
        assertThat(last.path("id").asText()).isEqualTo("s");
        assertThat(last.path("usage").path("prompt_tokens").asLong()).isEqualTo(input);
        assertThat(last.path("usage").path("completion_tokens").asLong()).isEqualTo(delivered);
        assertThat(last.path("usage").path("total_tokens").asLong()).isEqualTo(input + delivered);
        assertThat(sse.chunks()).filteredOn(c -> c.has("usage")).hasSize(1);
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isEqualTo(rate.cost(input, delivered));
    }

    // --- every answer carries usage ---

    @Test
    void everyAnswerChatOrServiceStreamedOrNotCarriesUsage() throws Exception {
        // a chat upstream that reported usage without total_tokens, and one that reported none
        MockHttpServletResponse reported = stubChat(100_000, 1, Agent.chatBody("echo-1", "hi", null, false));
        assertThat(json.readTree(reported.getContentAsString()).path("usage").path("total_tokens").asLong())
                .isEqualTo(stub.promptTokens + stub.completionTokens);
        stub.mode = StubUpstream.Mode.RAW;
        stub.rawBody = "{\"id\":\"x\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":"
                + "{\"role\":\"assistant\",\"content\":\"no usage here\"},\"finish_reason\":\"stop\"}]}";
        MockHttpServletResponse unreported = stubChat(200_000, 2, Agent.chatBody("echo-1", "hi", null, false));
        JsonNode usage = json.readTree(unreported.getContentAsString()).path("usage");
        long input = GatewayPrices.inputTokens("echo-1", "hi");
        long output = Tokenizer.forModel("echo-1").count("no usage here");
        assertThat(usage.path("prompt_tokens").asLong()).isEqualTo(input);
        assertThat(usage.path("completion_tokens").asLong()).isEqualTo(output);
        assertThat(usage.path("total_tokens").asLong()).isEqualTo(input + output);
        assertThat(unreported.getHeader("X-CHAN-Cost"))
                .isEqualTo(prices.model("echo-1").orElseThrow().cost(input, output).toString());

        // services, flat and per unit, on the service's own channel
        String serviceChannel = Channels.randomChannelId();
        commands.sendAndWait(new OpenChannel(serviceChannel, consumer.address(), identity.address(), DEPOSIT,
                Instant.now().getEpochSecond() + 86_400, Channels.nextChainRef()));
        for (String[] request : new String[][] {
                {"page-fetch", "{\"url\":\"https://example.com/usage\"}"},
                {"vpn-lease", "{\"minutes\":5,\"country\":\"US\"}"}}) {
            Http.Reply reply = chat(Channels.voucherJson(consumer, serviceChannel, 200_000,
                    request[0].equals("page-fetch") ? 1 : 2), Agent.serviceBody(request[0], request[1]));
            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            JsonNode serviceUsage = reply.json().path("usage");
            assertThat(serviceUsage.path("prompt_tokens").asLong()).isEqualTo(Tokenizer.forModel(request[0]).count(request[1]));
            assertThat(serviceUsage.path("total_tokens").asLong()).isEqualTo(serviceUsage.path("prompt_tokens").asLong()
                    + serviceUsage.path("completion_tokens").asLong()).isPositive();
        }

        // the echo backend streamed, usage asked for
        String streamBody = Agent.chatBody("echo-1", "stream me", null, true)
                .replace("\"stream\":true", "\"stream\":true,\"stream_options\":{\"include_usage\":true}");
        Http.Reply streamed = chat(Channels.voucherJson(consumer, serviceChannel, 400_000, 3), streamBody);
        GatewayReplies.Sse sse = GatewayReplies.Sse.parse(streamed.body());
        assertThat(sse.done()).isTrue();
        JsonNode last = sse.chunks().get(sse.chunks().size() - 1);
        assertThat(last.path("usage").path("total_tokens").asLong())
                .isEqualTo(GatewayPrices.inputTokens("echo-1", "stream me") + Tokenizer.forModel("echo-1").count(sse.text()));
    }

    // --- holds of requests no process serves ---

    @Test
    void aHoldLeftByADeadProcessIsReleasedOnceEveryLiveInstanceStartedAfterIt() {
        BigInteger hold = BigInteger.valueOf(2_000);
        SignedVoucher voucher = SignedVoucher.parse(channelId, "100000", "1",
                Channels.sign(consumer, channelId, BigInteger.valueOf(100_000), BigInteger.ONE));
        // admitted as a request is, and never settled: its process died
        admission.admit(voucher, new MeteredRequest(hold, Instant.now().plusSeconds(600).getEpochSecond(),
                identity.address()));
        await("the read model to show the hold").atMost(Duration.ofSeconds(20))
                .until(() -> readModel().path("held").asText().equals("2000"));

        // an instance that starts now sees no live instance older than the hold
        int released = release.release(Instant.now(), Instant.now().plusSeconds(5));

        assertThat(released).isPositive();
        assertThat(settlements()).singleElement().satisfies(s -> assertThat(s.charged()).isZero());
        assertThat(history.state(channelId).orElseThrow().holds()).isEmpty();
        await("the read model to drop the hold").atMost(Duration.ofSeconds(20))
                .until(() -> readModel().path("held").asText().equals("0") && holdsColumn().isEmpty());
        assertThat(readModel().path("chargedTotal").asText()).isEqualTo("0");
    }

    @Test
    void aHoldThatLapsedIsReleasedAndAHoldOfARequestThatMayStillRunIsNot() {
        SignedVoucher lapsing = SignedVoucher.parse(channelId, "100000", "1",
                Channels.sign(consumer, channelId, BigInteger.valueOf(100_000), BigInteger.ONE));
        // lapses in two to three seconds (whole seconds): long enough for the read model to show it
        // before the context's own release round, which runs every 30 seconds, may take it
        admission.admit(lapsing, new MeteredRequest(BigInteger.valueOf(1_000),
                Instant.now().plusSeconds(3).getEpochSecond(), identity.address()));
        SignedVoucher running = SignedVoucher.parse(channelId, "100000", "2",
                Channels.sign(consumer, channelId, BigInteger.valueOf(100_000), BigInteger.TWO));
        admission.admit(running, new MeteredRequest(BigInteger.valueOf(3_000),
                Instant.now().plusSeconds(600).getEpochSecond(), identity.address()));
        await("the read model to show both holds").atMost(Duration.ofSeconds(20))
                .until(() -> holdsColumn().split(";").length == 2);
        // the context's own release round may take the lapsed hold first: then it is gone already
        await("the first hold to lapse").atMost(Duration.ofSeconds(10)).until(() -> {
            ChannelState.Hold first = history.state(channelId).orElseThrow().holds().get(BigInteger.ONE);
            return first == null || Instant.now().getEpochSecond() > first.until();
        });

        release.round();

        assertThat(history.state(channelId).orElseThrow().holds()).containsOnlyKeys(BigInteger.TWO);
        assertThat(settlements()).singleElement().satisfies(s -> assertThat(s.nonce()).isEqualTo(BigInteger.ONE));
        await("the read model to keep only the running hold").atMost(Duration.ofSeconds(20))
                .until(() -> holdsColumn().startsWith("2:3000:"));
    }

    private JsonNode readModel() {
        return AdminReads.get(baseUrl() + "/api/channels/" + channelId).json();
    }

    private String holdsColumn() {
        List<String> rows = new JdbcTemplate(dataSource).queryForList(
                "SELECT holds FROM channel_balance WHERE channel_id = ?", String.class, channelId);
        return rows.isEmpty() ? "" : rows.get(0);
    }

    private List<RequestSettled> settlements() {
        return history.events(channelId).stream().map(e -> e.getPayload()).filter(RequestSettled.class::isInstance)
                .map(RequestSettled.class::cast).toList();
    }

    private MockHttpServletResponse stubChat(long amount, long nonce, String body) throws Exception {
        return stubGateway.perform(post("/v1/chat/completions").contentType("application/json").content(body)
                        .header("X-CHAN-Voucher", Channels.voucherJson(consumer, channelId, amount, nonce)))
                .andReturn().getResponse();
    }

    private Http.Reply chat(String voucher, String body) {
        return Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/v1/chat/completions"))
                .header("Content-Type", "application/json").header("X-CHAN-Voucher", voucher)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }
}
