package io.chanledger.api.provider.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import io.chanledger.domain.channel.OpenChannel;
import io.chanledger.domain.channel.RequestSettled;
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
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** A streamed answer the client walks away from: billed for what was delivered, upstream cancelled. */
class GatewayStreamTest extends LedgerIntegrationTest {

    @Autowired
    CommandGateway commands;
    @Autowired
    ChannelHistory history;
    @Autowired
    ProviderIdentity identity;
    @Autowired
    PriceList prices;
    @Autowired
    Upstreams upstreams;

    @Test
    void aClientThatLeavesMidStreamPaysForWhatItReceivedAndTheUpstreamIsCancelled() throws Exception {
        DigestSigner consumer = TestKeys.wallet("stream-consumer-" + System.nanoTime());
        String channelId = Channels.randomChannelId();
        commands.sendAndWait(new OpenChannel(channelId, consumer.address(), identity.address(),
                BigInteger.valueOf(5_000_000), Instant.now().getEpochSecond() + 86_400, Channels.nextChainRef()));
        String prompt = IntStream.range(0, 300).mapToObj(i -> "w" + i).collect(Collectors.joining(" "));
        int maxTokens = 250;
        EchoUpstream echo = (EchoUpstream) upstreams.chat(prices.model("echo-1").orElseThrow());
        long cancelledBefore = echo.streamsCancelled();
        long producedBefore = echo.chunksProduced();

        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl() + "/v1/chat/completions"))
                .header("Content-Type", "application/json")
                .header("X-CHAN-Voucher", Channels.voucherJson(consumer, channelId, 1_000_000, 1))
                .POST(HttpRequest.BodyPublishers.ofString(Agent.chatBody("echo-1", prompt, maxTokens, true)))
                .build();
        HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        int received = 0;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String line;
            while (received < 5 && (line = lines.readLine()) != null) {
                if (line.startsWith("data: {") && line.contains("\"content\":\"") && !line.contains("\"content\":\"\"")) {
                    received++;
                }
            }
        }
        assertThat(received).isEqualTo(5);

        RequestSettled settled = await("the cut stream to be settled").atMost(Duration.ofSeconds(20))
                .until(() -> settlement(channelId).orElse(null), Objects::nonNull);
        long input = GatewayPrices.inputTokens("echo-1", prompt);
        PriceList.ModelRate rate = prices.model("echo-1").orElseThrow();
        assertThat(settled.cost()).isLessThan(rate.cost(input, maxTokens));
        assertThat(LongStream.range(received, maxTokens).mapToObj(k -> rate.cost(input, k)))
                .as("the cost of the input and of some number of delivered tokens").contains(settled.cost());
        assertThat(settled.charged()).isEqualTo(settled.cost());
        assertThat(echo.streamsCancelled()).isEqualTo(cancelledBefore + 1);
        assertThat(echo.chunksProduced() - producedBefore).isLessThan(maxTokens);
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isEqualTo(settled.charged());
    }

    private Optional<RequestSettled> settlement(String channelId) {
        return history.events(channelId).stream().map(e -> e.getPayload())
                .filter(RequestSettled.class::isInstance).map(RequestSettled.class::cast).findFirst();
    }
}
