package io.chanledger.api.provider.gateway;

import static io.chanledger.api.provider.gateway.GatewayReplies.header;
import static io.chanledger.api.support.ChannelStates.awaitState;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.ServiceStub;
import io.chanledger.api.support.TestKeys;
import io.chanledger.testsupport.Devnet;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.domain.channel.OpenChannel;
import io.chanledger.domain.channel.RequestSettled;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Instant;
import java.util.UUID;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Non-chat services through the gateway (application-test.yml: {@code page-fetch}, flat-priced,
 * POSTs its parameters as JSON; {@code vpn-lease}, priced per minute, GETs them in the path and
 * query), against the loopback {@link ServiceStub}: paid end to end on the devnet with vouchers
 * budgeted as agent clients budget them, invalid parameters and failed services cost nothing, the
 * service receives exactly the declared request, and its API key shows nowhere but there.
 */
@ExtendWith(OutputCaptureExtension.class)
class ServiceGatewayTest extends LedgerIntegrationTest {

    /** The api-key of both stub upstreams in application-test.yml. */
    static final String SERVICE_KEY = "sk-test-service-key-5f1c9a77";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Autowired
    ProviderIdentity identity;
    @Autowired
    PriceList prices;
    @Autowired
    ChannelHistory history;
    @Autowired
    CommandGateway commands;

    private final ServiceStub stub = ServiceStub.shared();

    @Test
    void tokenFlatAndPerUnitRequestsArePaidOnTheDevnetAndTheCloseAgreesWithTheLedger() throws Exception {
        Devnet devnet = devnet();
        Agent agent = Agent.create(devnet, baseUrl());
        BigInteger deposit = BigInteger.valueOf(2_000_000);
        agent.open(identity.address(), deposit, 86_400);
        awaitState(history, agent.channelId, s -> true, "the ledger to record the channel");

        // token-priced chat, as before
        PriceList.ModelRate echo = prices.model("echo-1").orElseThrow();
        Http.Reply chat = agent.chat(agent.nextVoucher(agent.budget(ClientBudget.estimate(echo, "hi", null))),
                Agent.chatBody("echo-1", "hi", null, false));
        assertThat(chat.status()).as(chat.body()).isEqualTo(200);
        BigInteger total = GatewayPrices.cost(prices, "echo-1", "hi", GatewayPrices.ECHO_ANSWER_TOKENS);
        assertThat(header(chat, "X-CHAN-Cost")).isEqualTo(total.toString());

        // flat: the client vouches its previous amount plus inputPer1kTokens x 1.2
        PriceList.ModelRate fetch = prices.model("page-fetch").orElseThrow();
        String page = "https://example.com/" + UUID.randomUUID();
        String fetchParameters = "{\"url\":\"" + page + "\",\"format\":\"text\"}";
        Http.Reply fetched = agent.chat(agent.nextVoucher(agent.budget(ClientBudget.estimate(fetch, "", null))),
                Agent.serviceBody("page-fetch", fetchParameters));

        assertThat(fetched.status()).as(fetched.body()).isEqualTo(200);
        BigInteger flatPrice = BigInteger.valueOf(20_000);
        total = total.add(flatPrice);
        assertThat(header(fetched, "X-CHAN-Cost")).isEqualTo(flatPrice.toString());
        assertThat(header(fetched, "X-CHAN-Total")).isEqualTo(total.toString());
        assertThat(header(fetched, "X-CHAN-Remaining")).isEqualTo(deposit.subtract(total).toString());
        assertThat(header(fetched, "X-CHAN-Channel")).isEqualTo(agent.channelId);
        JsonNode answer = fetched.json();
        assertThat(answer.path("object").asText()).isEqualTo("chat.completion");
        assertThat(answer.path("model").asText()).isEqualTo("page-fetch");
        assertThat(answer.path("choices").path(0).path("message").path("role").asText()).isEqualTo("assistant");
        JsonNode result = JSON.readTree(answer.path("choices").path(0).path("message").path("content").asText());
        assertThat(result).isEqualTo(JSON.readTree("{\"url\":\"" + page + "\",\"format\":\"text\","
                + "\"content\":\"# Example page\"}"));
        ServiceStub.Received post = stub.find(r -> r.body().contains(page)).orElseThrow();
        assertThat(post.method()).isEqualTo("POST");
        assertThat(post.path()).isEqualTo("/scrape");
        assertThat(post.query()).isNull();
        assertThat(post.body()).isEqualTo(fetchParameters);
        assertThat(post.header("Content-Type")).isEqualTo("application/json");
        assertThat(post.header("X-Api-Key")).isEqualTo(SERVICE_KEY);
        assertThat(post.header("X-Client")).isEqualTo("chan-gateway-test");
        assertThat(post.header("Authorization")).isNull();
        assertThat(post.header("X-CHAN-Voucher")).isNull();

        // per unit: 30 minutes at 0.0005; vouched as the client budgets it (its published price is its highest)
        PriceList.ModelRate lease = prices.model("vpn-lease").orElseThrow();
        String marker = "wg-" + UUID.randomUUID();
        Http.Reply leased = agent.chat(agent.nextVoucher(agent.budget(ClientBudget.estimate(lease, "", null))),
                Agent.serviceBody("vpn-lease", "{\"minutes\":30,\"country\":\"DE\",\"protocols\":[\"" + marker
                        + "\",\"ovpn x\"]}"));

        assertThat(leased.status()).as(leased.body()).isEqualTo(200);
        BigInteger leaseCost = BigInteger.valueOf(30 * 500);
        total = total.add(leaseCost);
        assertThat(header(leased, "X-CHAN-Cost")).isEqualTo(leaseCost.toString());
        assertThat(header(leased, "X-CHAN-Total")).isEqualTo(total.toString());
        ServiceStub.Received get = stub.find(r -> r.query() != null && r.query().contains(marker)).orElseThrow();
        assertThat(get.method()).isEqualTo("GET");
        assertThat(get.path()).isEqualTo("/lease/DE");
        assertThat(get.query()).isEqualTo("plan=basic&minutes=30&protocols=" + marker + "&protocols=ovpn+x");
        assertThat(get.body()).isEmpty();
        assertThat(get.header("Authorization")).isEqualTo("Bearer " + SERVICE_KEY);
        assertThat(get.header("Content-Type")).isNull();

        // the close covers exactly what was charged, and the chain agrees
        Http.Reply close = Http.postJson(baseUrl() + "/v1/close-channel", "{\"channelId\":\"" + agent.channelId + "\"}");
        assertThat(close.status()).as(close.body()).isEqualTo(200);
        BigInteger finalAmount = new BigInteger(close.json().path("finalAmount").asText());
        assertThat(finalAmount).isEqualTo(total);
        assertThat(devnet.cooperativeClose(agent.wallet, agent.channelId, finalAmount,
                Hex.decode(close.json().path("signature").asText())).isStatusOK()).isTrue();
        ChannelState state = awaitState(history, agent.channelId, s -> s.status() == ChannelStatus.CLOSED,
                "the listener to record the cooperative close");
        assertThat(state.chargedTotal()).isEqualTo(total);
        assertThat(state.refund()).isEqualTo(deposit.subtract(total));
    }

    @Test
    void invalidParametersPlainTextAndStreamsAreRefusedBeforeTheVoucherIsTouched() {
        DigestSigner consumer = TestKeys.wallet("service-consumer-" + System.nanoTime());
        String channelId = open(consumer);
        int eventsBefore = history.events(channelId).size();
        String voucher = Channels.voucherJson(consumer, channelId, 100_000, 1);

        Http.Reply plain = chat(voucher, Agent.serviceBody("page-fetch", "please fetch example.com"));
        assertThat(plain.status()).as(plain.body()).isEqualTo(400);
        assertThat(header(plain, "X-CHAN-Error")).isEqualTo("invalid_parameters");
        assertThat(plain.json().path("error").path("message").asText())
                .contains("JSON object", "{\"url\":\"https://example.com/\",\"format\":\"markdown\"}",
                        baseUrl() + "/v1/docs");

        String[] invalid = {
                "{\"url\":\"https://example.com/\",\"format\":\"pdf\"}",      // not in the enum
                "{\"url\":\"short\"}",                                      // below minLength
                "{\"format\":\"text\"}",                                    // url missing
                "{\"url\":\"https://example.com/\",\"depth\":3}",            // not declared
                "[\"https://example.com/\"]"};                              // not an object
        for (String parameters : invalid) {
            Http.Reply reply = chat(voucher, Agent.serviceBody("page-fetch", parameters));
            assertThat(reply.status()).as(parameters + " -> " + reply.body()).isEqualTo(400);
            assertThat(header(reply, "X-CHAN-Error")).isEqualTo("invalid_parameters");
        }
        // within the schema, outside the unit bounds (5 to 120 minutes); an integer is needed
        for (String minutes : new String[] {"200", "3", "7.5"}) {
            Http.Reply reply = chat(voucher, Agent.serviceBody("vpn-lease", "{\"minutes\":" + minutes
                    + ",\"country\":\"US\"}"));
            assertThat(reply.status()).as(minutes + " -> " + reply.body()).isEqualTo(400);
            assertThat(reply.json().path("error").path("message").asText()).contains("minutes");
        }
        Http.Reply streamed = chat(voucher, Agent.serviceBody("page-fetch", "{\"url\":\"https://example.com/\"}")
                .replace("{\"model\"", "{\"stream\":true,\"model\""));
        assertThat(streamed.status()).isEqualTo(400);
        assertThat(header(streamed, "X-CHAN-Error")).isEqualTo("stream_not_supported");

        assertThat(history.events(channelId)).hasSize(eventsBefore);
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isZero();
        // the very voucher is still unused: it pays for a valid request
        Http.Reply valid = chat(voucher, Agent.serviceBody("vpn-lease", "{\"minutes\":5,\"country\":\"US\"}"));
        assertThat(valid.status()).as(valid.body()).isEqualTo(200);
        assertThat(header(valid, "X-CHAN-Cost")).isEqualTo("2500");
    }

    @Test
    void aFailedServiceCostsNothingAndItsKeyShowsInNoLogAndNoAnswer(CapturedOutput output) {
        DigestSigner consumer = TestKeys.wallet("service-failures-" + System.nanoTime());
        String channelId = open(consumer);
        long nonce = 0;
        StringBuilder answers = new StringBuilder();
        for (String failing : new String[] {"https://example.com/status/500", "https://example.com/slow",
                "https://example.com/huge"}) {
            Http.Reply reply = chat(Channels.voucherJson(consumer, channelId, 100_000, ++nonce),
                    Agent.serviceBody("page-fetch", "{\"url\":\"" + failing + "\"}"));
            boolean late = failing.endsWith("/slow");
            assertThat(reply.status()).as(failing + " -> " + reply.body()).isEqualTo(late ? 504 : 502);
            assertThat(header(reply, "X-CHAN-Error")).isEqualTo(late ? "upstream_timeout" : "upstream_error");
            assertThat(reply.json().path("error").path("message").asText()).contains("nothing was charged");
            answers.append(reply.body()).append(reply.raw().headers().map());
        }
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isZero();

        // an answer that is not JSON (plain text, an HTML page, broken JSON) is no result: it costs nothing
        for (String notJson : new String[] {"https://example.com/text", "https://example.com/html",
                "https://example.com/malformed"}) {
            Http.Reply reply = chat(Channels.voucherJson(consumer, channelId, 100_000, ++nonce),
                    Agent.serviceBody("page-fetch", "{\"url\":\"" + notJson + "\"}"));
            assertThat(reply.status()).as(notJson + " -> " + reply.body()).isEqualTo(502);
            assertThat(header(reply, "X-CHAN-Error")).isEqualTo("upstream_error");
            assertThat(reply.json().path("error").path("message").asText()).contains("not JSON", "nothing was charged");
            answers.append(reply.body()).append(reply.raw().headers().map());
        }
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isZero();
        answers.append(Http.get(baseUrl() + "/v1/docs").body()).append(Http.get(baseUrl() + "/v1/pricing").body());

        assertThat(output.getAll()).contains("model page-fetch: upstream stub-scrape failed: the service answered HTTP 500",
                "did not answer within 1000 ms", "larger than 65536 bytes");
        assertThat(output.getAll()).doesNotContain(SERVICE_KEY);
        assertThat(answers.toString()).doesNotContain(SERVICE_KEY).contains("upstream_error");
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isZero();
    }

    /**
     * A 200 that is no result (an empty body, JSON null, {@code {}}, an {@code error} object, an
     * answer that page-fetch's declared answer schema refuses) is a failure, as a chat upstream's
     * is: 502, settled at zero, not kept for its voucher. Each voucher stays accepted (sent again
     * it is refused, not answered), and the failures took none of the room its amount left: the
     * next nonce at the same amount pays for a valid request in full.
     */
    @Test
    void aServiceAnswerThatIsNoResultIsA502ChargedNothingAndNotKept() {
        DigestSigner consumer = TestKeys.wallet("service-non-answers-" + System.nanoTime());
        String channelId = open(consumer);
        long amount = 100_000;
        long nonce = 0;
        String[][] noResults = {{"empty-object", "answered an empty object"}, {"error-object",
                "answered an error object"}, {"null", "answered null"}, {"empty", "answer is empty"},
                {"off-schema", "does not match the model's answer schema: $.content: object found, string expected"}};
        for (String[] noResult : noResults) {
            String voucher = Channels.voucherJson(consumer, channelId, amount, ++nonce);
            String body = Agent.serviceBody("page-fetch", "{\"url\":\"https://example.com/" + noResult[0] + "\"}");

            Http.Reply reply = chat(voucher, body);

            assertThat(reply.status()).as(noResult[0] + " -> " + reply.body()).isEqualTo(502);
            assertThat(header(reply, "X-CHAN-Error")).isEqualTo("upstream_error");
            assertThat(header(reply, "X-CHAN-Cost")).isNull();
            assertThat(reply.json().path("error").path("message").asText()).contains(noResult[1], "nothing was charged");
            assertThat(reply.body()).doesNotContain("upstream details");
            BigInteger settledNonce = BigInteger.valueOf(nonce);
            assertThat(history.events(channelId).stream().map(e -> e.getPayload()))
                    .filteredOn(e -> e instanceof RequestSettled settled && settled.nonce().equals(settledNonce))
                    .singleElement().satisfies(e -> assertThat(((RequestSettled) e).charged()).isZero());
            assertThat(history.state(channelId).orElseThrow().chargedTotal()).isZero();

            Http.Reply again = chat(voucher, body);
            assertThat(again.status()).as("sent again: " + again.body()).isEqualTo(402);
            assertThat(header(again, "X-CHAN-Error")).isEqualTo("invalid_nonce");
            assertThat(header(again, "X-CHAN-Replay")).isNull();
            assertThat(history.state(channelId).orElseThrow().chargedTotal()).isZero();
        }

        Http.Reply valid = chat(Channels.voucherJson(consumer, channelId, amount, ++nonce),
                Agent.serviceBody("page-fetch", "{\"url\":\"https://example.com/answered\"}"));
        assertThat(valid.status()).as(valid.body()).isEqualTo(200);
        assertThat(header(valid, "X-CHAN-Cost")).isEqualTo("20000");
        assertThat(header(valid, "X-CHAN-Total")).isEqualTo("20000");
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isEqualTo(BigInteger.valueOf(20_000));
    }

    @Test
    void theDocsDescribeEveryParameterAndPriceOfEachService() {
        Http.Reply reply = Http.get(baseUrl() + "/v1/docs");

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.body()).contains(
                "page-fetch (Page fetch): Fetches a web page and answers its content as markdown or text.",
                "price: 0.02 USDC per request (voucher: previous amount + 0.024)",
                "url (string, required): min length 8, max length 2048 - the page to fetch",
                "format (string, optional): one of markdown, text, default \"markdown\"",
                "{\"model\":\"page-fetch\",\"messages\":[{\"role\":\"user\",\"content\":"
                        + "\"{\\\"url\\\":\\\"https://example.com/\\\",\\\"format\\\":\\\"markdown\\\"}\"}]}",
                "vpn-lease (VPN lease): Leases a VPN endpoint in a country for some minutes.",
                "price: 0.0005 USDC per unit of minutes (minutes from 5 to 120), so 0.0025 to 0.06 USDC per request",
                "minutes (integer, required): at least 1, at most 1440",
                "country (string, required): matching ^[A-Z]{2}$",
                "protocols (array of string, optional): max items 3",
                "no other parameters",
                "echo-1: 0.00375 / 0.015",
                "echo-flat: 0.01 / 0 (flat: 0.01 USDC per request)");
    }

    @Test
    void thePricingPublishesEachModelsWholePriceAndTheTwoNumbersClientsBudgetBy() {
        JsonNode models = Http.get(baseUrl() + "/v1/pricing").json().path("models");

        JsonNode fetch = models.path("page-fetch");
        assertThat(fetch.path("inputPer1kTokens").asText()).isEqualTo("0.02");
        assertThat(fetch.path("outputPer1kTokens").asText()).isEqualTo("0");
        assertThat(fetch.path("price").toString()).isEqualTo("{\"kind\":\"flat\",\"perRequest\":\"20000\"}");
        JsonNode lease = models.path("vpn-lease");
        assertThat(lease.path("inputPer1kTokens").asText()).as("its highest price, 120 minutes").isEqualTo("0.06");
        assertThat(lease.path("outputPer1kTokens").asText()).isEqualTo("0");
        assertThat(lease.path("price").toString()).isEqualTo("{\"kind\":\"per-unit\",\"perUnit\":\"500\","
                + "\"unit\":\"minutes\",\"minUnits\":5,\"maxUnits\":120}");
        assertThat(models.path("echo-1").path("price").toString()).isEqualTo(
                "{\"kind\":\"tokens\",\"inputPer1kTokens\":\"3750\",\"outputPer1kTokens\":\"15000\"}");
        assertThat(models.path("echo-flat").path("price").path("kind").asText())
                .as("priced per token with an output price of 0: flat").isEqualTo("flat");

        JsonNode listed = Http.get(baseUrl() + "/v1/models").json().path("data");
        for (JsonNode model : listed) {
            assertThat(model.path("price")).as(model.toString())
                    .isEqualTo(models.path(model.path("id").asText()).path("price"));
        }
        assertThat(listed.size()).isEqualTo(models.size());
    }

    /**
     * Each model's example request, as {@code /v1/pricing} publishes it and the pages and
     * {@code /v1/docs} show it, is one this gateway serves: paid with a voucher budgeted as agent
     * clients budget it, every example is answered (200), where the one chat greeting the pages
     * showed for every model is refused by a service (400).
     */
    @Test
    void everyModelsExampleRequestIsServedWhenPaid() throws Exception {
        JsonNode models = Http.get(baseUrl() + "/v1/pricing").json().path("models");
        String docs = Http.get(baseUrl() + "/v1/docs").body();
        Devnet devnet = devnet();
        Agent agent = Agent.create(devnet, baseUrl());
        agent.open(identity.address(), BigInteger.valueOf(2_000_000), 86_400);
        awaitState(history, agent.channelId, s -> true, "the ledger to record the channel");
        PriceList.ModelRate lease = prices.model("vpn-lease").orElseThrow();

        Http.Reply greeting = agent.chat(agent.nextVoucher(agent.budget(ClientBudget.estimate(lease, "", null))),
                "{\"model\":\"vpn-lease\",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}");
        assertThat(greeting.status()).as(greeting.body()).isEqualTo(400);

        assertThat(models.size()).isEqualTo(prices.models().size());
        for (PriceList.ModelRate model : prices.models()) {
            JsonNode example = models.path(model.id()).path("example");
            assertThat(example.path("model").asText()).isEqualTo(model.id());
            String content = example.path("messages").path(0).path("content").asText();
            Http.Reply reply = agent.chat(agent.nextVoucher(agent.budget(ClientBudget.estimate(model,
                    model.service() == null ? content : "", null))), example.toString());
            assertThat(reply.status()).as(model.id() + ": " + reply.body()).isEqualTo(200);
            if (model.service() != null) {
                assertThat(docs).as("the service's example in /v1/docs").contains(example.toString());
            }
        }
    }

    @Test
    void theUnpaidWordCountServiceCounts() {
        Http.Reply reply = Http.postJson(baseUrl() + "/demo/word-count", "{\"text\":\"one two  three\\nfour\"}");

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.json().path("words").asInt()).isEqualTo(4);
        assertThat(reply.json().path("lines").asInt()).isEqualTo(2);
        assertThat(reply.json().path("characters").asInt()).isEqualTo(19);
        assertThat(Http.postJson(baseUrl() + "/demo/word-count", "{\"words\":1}").status()).isEqualTo(400);
    }

    private String open(DigestSigner consumer) {
        String channelId = Channels.randomChannelId();
        commands.sendAndWait(new OpenChannel(channelId, consumer.address(), identity.address(),
                BigInteger.valueOf(1_000_000), Instant.now().getEpochSecond() + 86_400, Channels.nextChainRef()));
        return channelId;
    }

    private Http.Reply chat(String voucher, String body) {
        return Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/v1/chat/completions"))
                .header("Content-Type", "application/json").header(ChatCompletionsController.VOUCHER_HEADER, voucher)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }
}
