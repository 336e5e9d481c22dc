package io.chanledger.chain.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.web3j.protocol.core.methods.response.EthBlockNumber;

class JsonRpcClientTest {

    private final ScriptedNode node = new ScriptedNode();
    private final List<Duration> pauses = new ArrayList<>();

    @AfterEach
    void stop() {
        node.close();
    }

    private JsonRpcClient client(int attempts) {
        RetryPolicy policy = new RetryPolicy(attempts, Duration.ofMillis(100), Duration.ofMillis(400), 2.0, 0.5);
        return new JsonRpcClient(node.url(), Duration.ofMillis(500), policy, 3, pauses::add);
    }

    private static long blockNumber(JsonRpcClient client) {
        return client.call("eth_blockNumber", List.of(), EthBlockNumber.class).getBlockNumber().longValueExact();
    }

    @Test
    void retriesServerErrorsRateLimitsAndMalformedAnswersUntilAnAnswerArrives() {
        node.then(503, r -> "busy").then(429, r -> "slow down").then(200, r -> "{\"jsonrpc\":\"2.0\",")
                .then(200, r -> "{}").then(200, r -> ScriptedNode.answer(r, "\"0x10\""));
        JsonRpcClient client = client(5);

        assertThat(blockNumber(client)).isEqualTo(16);
        assertThat(client.counters().failures()).isEqualTo(4);
        assertThat(client.counters().retries()).isEqualTo(4);
        assertThat(client.counters().requests()).isEqualTo(5);
        assertThat(pauses).hasSize(4);
    }

    @Test
    void backsOffExponentiallyWithJitterWithinTheCap() {
        for (int i = 0; i < 4; i++) {
            node.then(500, r -> "down");
        }
        node.thenResult("\"0x1\"");
        blockNumber(client(5));

        assertThat(pauses).hasSize(4);
        long[] caps = {100, 200, 400, 400};
        for (int i = 0; i < 4; i++) {
            assertThat(pauses.get(i).toMillis()).isBetween(caps[i] / 2, caps[i]);
        }
    }

    @Test
    void givesUpAfterTheLastAttemptWithATransientFailure() {
        for (int i = 0; i < 3; i++) {
            node.then(502, r -> "bad gateway");
        }
        JsonRpcClient client = client(3);

        assertThatThrownBy(() -> blockNumber(client)).isInstanceOfSatisfying(RpcException.class,
                e -> assertThat(e.kind()).isEqualTo(RpcException.Kind.TRANSIENT));
        assertThat(client.counters().exhausted()).isEqualTo(1);
        assertThat(node.requestCount()).isEqualTo(3);
    }

    @Test
    void treatsATimeoutAsTransient() {
        node.thenSlow(1_500, r -> ScriptedNode.answer(r, "\"0x1\"")).thenResult("\"0x2\"");

        assertThat(blockNumber(client(2))).isEqualTo(2);
    }

    @Test
    void doesNotRetryPermanentErrors() {
        node.thenError(-32601, "the method eth_foo does not exist").thenResult("\"0x2\"");
        JsonRpcClient client = client(5);

        assertThatThrownBy(() -> client.call("eth_foo", List.of(), EthBlockNumber.class))
                .isInstanceOfSatisfying(RpcException.class, e -> {
                    assertThat(e.kind()).isEqualTo(RpcException.Kind.PERMANENT);
                    assertThat(e.rpcCode()).isEqualTo(-32601);
                });
        assertThat(node.requestCount()).isEqualTo(1);
    }

    @Test
    void aClientErrorStatusIsPermanent() {
        node.then(401, r -> "unauthorized");

        assertThatThrownBy(() -> blockNumber(client(5))).isInstanceOfSatisfying(RpcException.class,
                e -> assertThat(e.kind()).isEqualTo(RpcException.Kind.PERMANENT));
        assertThat(node.requestCount()).isEqualTo(1);
    }

    @Test
    void recognisesProvidersRefusingALargeLogRange() {
        List<String> refusals = List.of("query returned more than 10000 results",
                "exceed maximum block range: 5000", "block range is too wide", "Log response size exceeded.");
        for (String refusal : refusals) {
            node.thenError(-32000, refusal);
            assertThatThrownBy(() -> new EthApi(client(5)).logs("0x" + "11".repeat(20), 0, 100_000))
                    .as(refusal).isInstanceOfSatisfying(RpcException.class,
                            e -> assertThat(e.kind()).isEqualTo(RpcException.Kind.RANGE_TOO_LARGE));
        }
    }

    @Test
    void aRateLimitOnGetLogsIsTransientNotARangeRefusal() {
        node.thenError(-32005, "daily request count exceeded, request rate limited").thenResult("[]");

        assertThat(new EthApi(client(5)).logs("0x" + "11".repeat(20), 0, 10)).isEmpty();
    }

    @Test
    void anAnswerToAnotherRequestIsNotAccepted() {
        node.then(200, r -> "{\"jsonrpc\":\"2.0\",\"id\":999999,\"result\":\"0x5\"}").thenResult("\"0x6\"");

        assertThat(blockNumber(client(2))).isEqualTo(6);
    }

    @Test
    void batchAnswersAreMatchedByIdWhateverTheirOrder() {
        node.then(200, ScriptedNode::reversedBlockNumbers).then(200, ScriptedNode::reversedBlockNumbers);
        JsonRpcClient client = client(1);
        List<List<?>> params = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            params.add(List.of("0x" + Integer.toHexString(i), false));
        }

        List<EthBlockNumber> answers = client.batch("eth_blockNumber", params, EthBlockNumber.class);

        assertThat(answers).extracting(EthBlockNumber::getBlockNumber)
                .containsExactly(BigInteger.ZERO, BigInteger.ONE, BigInteger.TWO, BigInteger.valueOf(3), BigInteger.valueOf(4));
        assertThat(node.requestCount()).as("batches of at most 3").isEqualTo(2);
    }

    @Test
    void aBatchMissingAnAnswerIsRetried() {
        node.then(200, request -> "[" + ScriptedNode.answer(request.get(0), "\"0x0\"") + "]")
                .then(200, ScriptedNode::reversedBlockNumbers);
        List<List<?>> params = List.of(List.of("0x0", false), List.of("0x1", false));

        List<EthBlockNumber> answers = client(2).batch("eth_blockNumber", params, EthBlockNumber.class);

        assertThat(answers).extracting(EthBlockNumber::getBlockNumber).containsExactly(BigInteger.ZERO, BigInteger.ONE);
    }

    @Test
    void neverLogsTheEndpointPathWhereApiKeysLive() {
        JsonRpcClient client = new JsonRpcClient("https://polygon.example.org/v2/secret-key", Duration.ofSeconds(1),
                RetryPolicy.none());

        assertThat(client.endpointName()).isEqualTo("https://polygon.example.org").doesNotContain("secret");
    }

}
