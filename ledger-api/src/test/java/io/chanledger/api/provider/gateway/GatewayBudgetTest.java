package io.chanledger.api.provider.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import io.chanledger.domain.channel.OpenChannel;
import io.chanledger.domain.eip712.DigestSigner;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;

/**
 * Requests budgeted the way the marketplace's agent client budgets them (docs/protocol.md §D.2, {@link
 * ClientBudget}) are served from the first request of a channel on, plain and streamed, for prompts
 * of every size and models of every kind of price; an answer that costs more than the voucher
 * covers is charged what the voucher covers and not delivered beyond it. The gateway's controller
 * runs with the application's ledger, metering and error handling, the echo backend, and a price
 * list of its own.
 */
class GatewayBudgetTest extends LedgerIntegrationTest {

    private static final BigInteger DEPOSIT = BigInteger.valueOf(10_000_000);
    private static final int ANSWER_TOKENS = GatewayPrices.ECHO_ANSWER_TOKENS;

    /** Prices of real models and extremes, per 1,000 tokens; the names choose the tokenizer. */
    private static final List<GatewayProperties.Model> MODELS = List.of(
            new GatewayProperties.Model("gpt-4o-mini", null, "0.00015", "0.0006", null),
            new GatewayProperties.Model("echo-1", null, "0.00375", "0.015", null),
            new GatewayProperties.Model("gpt-4", null, "0.03", "0.06", null),
            new GatewayProperties.Model("output-heavy", null, "0.0005", "0.08", null),
            new GatewayProperties.Model("input-heavy", null, "0.05", "0.001", null),
            new GatewayProperties.Model("flat-service", null, "0.02", "0", null));

    /** Prompts from one word to a long document (the echo's answer to it is cut at {@link #ANSWER_TOKENS}). */
    private static final List<String> PROMPTS = List.of("hi", prose(60), prose(600), prose(8_000));

    @Autowired
    CommandGateway commands;
    @Autowired
    ChannelHistory history;
    @Autowired
    ProviderIdentity identity;
    @Autowired
    Metering metering;
    @Autowired
    ObjectMapper json;
    @Autowired
    ApplicationContext context;
    @Autowired
    PriceList appPrices;

    private final DigestSigner consumer = TestKeys.wallet("budget-consumer-" + System.nanoTime());
    private PriceList prices;
    private MockMvc gateway;

    @BeforeEach
    void wireGatewayWithItsOwnPrices() {
        prices = PriceList.of(new GatewayProperties("budget", "", null, null, null, null, Duration.ofMinutes(10),
                false, MODELS), 0);
        EchoUpstream echo = new EchoUpstream(json, Clock.systemUTC(), Duration.ZERO, ANSWER_TOKENS);
        gateway = StandaloneGateway.over(echo, prices, context);
    }

    /** Plain English of about {@code characters} characters, no character that needs escaping in JSON. */
    static String prose(int characters) {
        String[] sentences = {"A payment channel lets an agent pay per request without a transaction each time.",
            "The provider checks every voucher, serves the request, and charges what it cost.",
            "When the work is done, either side closes the channel and the rest of the deposit goes back.",
            "Budgets are estimates, so a client adds a margin, and the provider charges only the actual cost."};
        StringBuilder text = new StringBuilder();
        for (int i = 0; text.length() < characters; i++) {
            text.append(text.isEmpty() ? "" : " ").append(sentences[i % sentences.length]);
        }
        return text.toString();
    }

    private String openChannel() {
        String channelId = Channels.randomChannelId();
        commands.sendAndWait(new OpenChannel(channelId, consumer.address(), identity.address(), DEPOSIT,
                Instant.now().getEpochSecond() + 86_400, Channels.nextChainRef()));
        return channelId;
    }

    private MockHttpServletResponse chat(String channelId, BigInteger amount, long nonce, String body) throws Exception {
        return gateway.perform(post("/v1/chat/completions").contentType("application/json").content(body)
                        .header("X-CHAN-Voucher", Channels.voucherJson(consumer, channelId, amount.longValueExact(), nonce)))
                .andReturn().getResponse();
    }

    private static String comment(String body, String name) {
        return body.lines().filter(l -> l.startsWith(": " + name + ": ")).map(l -> l.substring(name.length() + 4))
                .findFirst().orElse(null);
    }

    private String streamedText(String body) throws Exception {
        StringBuilder text = new StringBuilder();
        for (String line : body.lines().filter(l -> l.startsWith("data: {")).toList()) {
            text.append(json.readTree(line.substring(6)).path("choices").path(0).path("delta").path("content").asText(""));
        }
        return text.toString();
    }

    /** The echo's answer to {@link Agent#chatBody} and what it costs at {@code rate}. */
    private record Expected(String answer, BigInteger cost, BigInteger hold) {

        static Expected of(PriceList.ModelRate rate, String prompt, Integer maxTokens) {
            Tokenizer tokenizer = Tokenizer.forModel(rate.id());
            String answer = tokenizer.truncate(EchoUpstream.PREFIX + prompt, maxTokens == null ? ANSWER_TOKENS : maxTokens);
            long input = tokenizer.count(Agent.SYSTEM_PROMPT) + tokenizer.count(prompt);
            return new Expected(answer, rate.cost(input, tokenizer.count(answer)),
                    rate.hold(input, maxTokens == null ? OptionalLong.empty() : OptionalLong.of(maxTokens)));
        }
    }

    @Test
    void theClientsBudgetPaysForTheFirstRequestAndEveryLaterOneForEveryPromptSizeAndPrice() throws Exception {
        int chargedAboveTheHold = 0;
        for (PriceList.ModelRate rate : prices.models()) {
            for (String prompt : PROMPTS) {
                String what = rate.id() + " with a prompt of " + prompt.length() + " characters";
                String channelId = openChannel();
                BigInteger amount = BigInteger.ZERO;
                BigInteger total = BigInteger.ZERO;

                // the channel's first request: plain, no max_tokens
                amount = amount.add(ClientBudget.estimate(rate, prompt, null));
                Expected plain = Expected.of(rate, prompt, null);
                MockHttpServletResponse first = chat(channelId, amount, 1, Agent.chatBody(rate.id(), prompt, null, false));
                assertThat(first.getStatus()).as("%s: %s", what, first.getContentAsString()).isEqualTo(200);
                assertThat(json.readTree(first.getContentAsString()).path("choices").path(0).path("message")
                        .path("content").asText()).as(what).isEqualTo(plain.answer());
                assertThat(first.getHeader("X-CHAN-Cost")).as(what).isEqualTo(plain.cost().toString());
                total = total.add(plain.cost());
                chargedAboveTheHold += plain.cost().compareTo(plain.hold()) > 0 ? 1 : 0;

                // then streamed, no max_tokens
                amount = amount.add(ClientBudget.estimate(rate, prompt, null));
                MockHttpServletResponse streamed = chat(channelId, amount, 2, Agent.chatBody(rate.id(), prompt, null, true));
                String body = streamed.getContentAsString();
                assertThat(streamed.getStatus()).as(what).isEqualTo(200);
                assertThat(body).as(what).doesNotContain("X-CHAN-Error");
                assertThat(streamedText(body)).as(what).isEqualTo(plain.answer());
                assertThat(comment(body, "X-CHAN-Cost")).as(what).isEqualTo(plain.cost().toString());
                total = total.add(plain.cost());

                // and with a max_tokens the agent asked for
                amount = amount.add(ClientBudget.estimate(rate, prompt, 40));
                Expected limited = Expected.of(rate, prompt, 40);
                MockHttpServletResponse third = chat(channelId, amount, 3, Agent.chatBody(rate.id(), prompt, 40, false));
                assertThat(third.getStatus()).as(what).isEqualTo(200);
                assertThat(third.getHeader("X-CHAN-Cost")).as(what).isEqualTo(limited.cost().toString());
                total = total.add(limited.cost());

                assertThat(third.getHeader("X-CHAN-Total")).as(what).isEqualTo(total.toString());
                assertThat(history.state(channelId).orElseThrow().chargedTotal()).as(what).isEqualTo(total);
            }
        }
        assertThat(chargedAboveTheHold).as("requests whose actual cost, charged in full, exceeded their hold")
                .isGreaterThan(PROMPTS.size());
    }

    @Test
    void anAnswerCostingMoreThanTheVoucherCoversIsDeliveredAndChargedWhatTheVoucherCovers() throws Exception {
        PriceList.ModelRate rate = prices.model("echo-1").orElseThrow();
        String prompt = prose(600);
        Expected answer = Expected.of(rate, prompt, null);
        assertThat(answer.cost()).isGreaterThan(answer.hold());
        String channelId = openChannel();

        MockHttpServletResponse reply = chat(channelId, answer.hold(), 1, Agent.chatBody("echo-1", prompt, null, false));

        // never both withheld and charged: the answer goes out, and the voucher's room is what it costs
        assertThat(reply.getStatus()).isEqualTo(200);
        assertThat(reply.getHeader("X-CHAN-Error")).isNull();
        assertThat(json.readTree(reply.getContentAsString()).path("choices").path(0).path("message").path("content")
                .asText()).isEqualTo(answer.answer());
        assertThat(reply.getHeader("X-CHAN-Cost")).isEqualTo(answer.hold().toString());
        assertThat(reply.getHeader("X-CHAN-Required")).isEqualTo(answer.cost().toString());
        assertThat(reply.getHeader("X-CHAN-Provided")).isEqualTo(answer.hold().toString());
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isEqualTo(answer.hold());
    }

    @Test
    void aStreamTheVoucherCannotPayToTheEndStopsAtWhatItCoversAndIsChargedThat() throws Exception {
        PriceList.ModelRate rate = prices.model("echo-1").orElseThrow();
        String prompt = prose(600);
        Expected answer = Expected.of(rate, prompt, null);
        Tokenizer tokenizer = Tokenizer.forModel("echo-1");
        long input = tokenizer.count(Agent.SYSTEM_PROMPT) + tokenizer.count(prompt);
        BigInteger amount = rate.cost(input, 80);
        String channelId = openChannel();

        MockHttpServletResponse reply = chat(channelId, amount, 1, Agent.chatBody("echo-1", prompt, null, true));

        String body = reply.getContentAsString();
        String delivered = streamedText(body);
        BigInteger charged = rate.cost(input, tokenizer.count(delivered));
        assertThat(reply.getStatus()).isEqualTo(200);
        assertThat(answer.answer()).startsWith(delivered);
        assertThat(tokenizer.count(delivered)).isEqualTo(80);
        assertThat(body).contains(": X-CHAN-Error: insufficient_funds_post", "data: [DONE]");
        assertThat(comment(body, "X-CHAN-Cost")).isEqualTo(charged.toString());
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isEqualTo(charged).isEqualTo(amount);
    }

    /**
     * A stream is admitted holding little; a second request on the channel is admitted while it
     * runs. Whatever the order in which they are charged, every token delivered is paid for, the
     * channel is charged no more than the voucher, and what it is charged is what the replies say.
     */
    @Test
    void aRunningStreamAndAConcurrentRequestCannotSpendTheSameRoom() throws Exception {
        race(false);
    }

    @Test
    void twoConcurrentStreamsCannotSpendTheSameRoom() throws Exception {
        race(true);
    }

    /** Through the application's own gateway, whose echo backend streams a token every few milliseconds. */
    private void race(boolean secondStreams) throws Exception {
        PriceList.ModelRate rate = appPrices.model("echo-1").orElseThrow();
        String prompt = prose(400);
        Expected answer = Expected.of(rate, prompt, null);
        Tokenizer tokenizer = Tokenizer.forModel("echo-1");
        long input = tokenizer.count(Agent.SYSTEM_PROMPT) + tokenizer.count(prompt);
        String channelId = openChannel();
        // room for one whole answer and a half, and both requests are admitted: each holds little
        BigInteger room = answer.cost().add(answer.cost().divide(BigInteger.TWO));
        assertThat(answer.hold().multiply(BigInteger.TWO)).isLessThan(room);

        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<InputStream> first = client.send(request(channelId, room, 1, prompt, true),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(first.statusCode()).isEqualTo(200);
        StringBuilder firstBody = new StringBuilder();
        HttpResponse<String> second;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(first.body(), StandardCharsets.UTF_8));
             ExecutorService pool = Executors.newSingleThreadExecutor()) {
            String line;
            while ((line = lines.readLine()) != null && !line.contains("\"content\":\"Echo")) {
                firstBody.append(line).append('\n');
            }
            firstBody.append(line).append('\n');
            // the first stream is running: the second request comes now, and runs beside it
            Future<HttpResponse<String>> sent = pool.submit(() -> client.send(
                    request(channelId, room, 2, prompt, secondStreams), HttpResponse.BodyHandlers.ofString()));
            while ((line = lines.readLine()) != null) {
                firstBody.append(line).append('\n');
            }
            second = sent.get();
        }

        BigInteger reported = BigInteger.ZERO;
        int wholeAnswers = 0;
        for (String body : secondStreams ? List.of(firstBody.toString(), second.body()) : List.of(firstBody.toString())) {
            String delivered = streamedText(body);
            assertThat(answer.answer()).startsWith(delivered);
            assertThat(comment(body, "X-CHAN-Cost")).as("every token delivered is paid for")
                    .isEqualTo(rate.cost(input, tokenizer.count(delivered)).toString());
            reported = reported.add(new BigInteger(comment(body, "X-CHAN-Cost")));
            wholeAnswers += delivered.equals(answer.answer()) ? 1 : 0;
        }
        if (!secondStreams) {
            String code = second.headers().firstValue("X-CHAN-Error").orElse(null);
            assertThat(second.statusCode() == 200 ? null : code).as(second.body())
                    .isIn(null, "insufficient_funds", "insufficient_funds_post");
            String required = second.headers().firstValue("X-CHAN-Required").orElse(null);
            if (second.statusCode() == 200 && required == null) {
                assertThat(second.headers().firstValue("X-CHAN-Cost")).contains(answer.cost().toString());
                wholeAnswers++;
            } else if (second.statusCode() == 200) {
                // delivered although the voucher's room fell short: charged that room, never more
                assertThat(required).isEqualTo(answer.cost().toString());
                assertThat(second.headers().firstValue("X-CHAN-Cost"))
                        .isEqualTo(second.headers().firstValue("X-CHAN-Provided"));
            } else {
                assertThat(second.body()).doesNotContain("Echo:");
            }
            reported = reported.add(new BigInteger(second.headers().firstValue("X-CHAN-Cost").orElse("0")));
        }
        BigInteger charged = history.state(channelId).orElseThrow().chargedTotal();
        assertThat(charged).isLessThanOrEqualTo(room).isEqualTo(reported);
        assertThat(wholeAnswers).as("the voucher pays for one whole answer and a half").isLessThanOrEqualTo(1);
    }

    private HttpRequest request(String channelId, BigInteger amount, long nonce, String prompt, boolean stream) {
        return HttpRequest.newBuilder(URI.create(baseUrl() + "/v1/chat/completions"))
                .header("Content-Type", "application/json")
                .header("X-CHAN-Voucher", Channels.voucherJson(consumer, channelId, amount.longValueExact(), nonce))
                .POST(HttpRequest.BodyPublishers.ofString(Agent.chatBody("echo-1", prompt, null, stream)))
                .build();
    }
}
