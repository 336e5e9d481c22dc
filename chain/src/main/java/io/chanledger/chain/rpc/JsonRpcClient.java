package io.chanledger.chain.rpc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.web3j.protocol.ObjectMapperFactory;
import org.web3j.protocol.core.Response;

/**
 * JSON-RPC over HTTP with bounded retries. Every failure is classified ({@link RpcException.Kind})
 * and counted; transient ones are retried with exponential backoff and jitter, the rest are
 * thrown at once. Answers are checked before use: an answer without a result, for another
 * request, or that is not JSON at all counts as a transient failure, never as an empty result.
 * The endpoint URL can hold an API key, so it is never logged; {@link #endpointName()} is.
 */
public final class JsonRpcClient {

    /** Waits between attempts; tests replace it to run without real pauses. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    public static final int DEFAULT_MAX_BATCH = 100;
    private static final Logger log = LoggerFactory.getLogger(JsonRpcClient.class);

    private final URI endpoint;
    private final HttpClient http;
    private final Duration requestTimeout;
    private final RetryPolicy retry;
    private final int maxBatchSize;
    private final Sleeper sleeper;
    private final RpcCounters counters = new RpcCounters();
    private final ObjectMapper json = ObjectMapperFactory.getObjectMapper();
    private final AtomicLong ids = new AtomicLong(1);

    public JsonRpcClient(String url, Duration requestTimeout, RetryPolicy retry) {
        this(url, requestTimeout, retry, DEFAULT_MAX_BATCH, duration -> Thread.sleep(duration.toMillis()));
    }

    public JsonRpcClient(String url, Duration requestTimeout, RetryPolicy retry, int maxBatchSize, Sleeper sleeper) {
        this.endpoint = URI.create(url);
        this.requestTimeout = requestTimeout;
        this.retry = retry;
        this.maxBatchSize = maxBatchSize;
        this.sleeper = sleeper;
        this.http = HttpClient.newBuilder()
                .connectTimeout(requestTimeout)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    public RpcCounters counters() {
        return counters;
    }

    /** Scheme, host and port of the endpoint: safe to log, unlike the full URL. */
    public String endpointName() {
        return endpoint.getScheme() + "://" + endpoint.getHost() + (endpoint.getPort() < 0 ? "" : ":" + endpoint.getPort());
    }

    /** One call; its answer has no error. The result may still be null where the method allows it. */
    public <T extends Response<?>> T call(String method, List<?> params, Class<T> type) {
        return withRetries(method, () -> callOnce(method, params, type));
    }

    /**
     * The same method with each parameter list, as JSON-RPC batches of at most the configured
     * size. Answers come back in the order of {@code paramsList}, whatever order the node used.
     */
    public <T extends Response<?>> List<T> batch(String method, List<? extends List<?>> paramsList, Class<T> type) {
        List<T> answers = new ArrayList<>(paramsList.size());
        for (int start = 0; start < paramsList.size(); start += maxBatchSize) {
            List<? extends List<?>> chunk = paramsList.subList(start, Math.min(paramsList.size(), start + maxBatchSize));
            answers.addAll(withRetries(method, () -> batchOnce(method, chunk, type)));
        }
        return answers;
    }

    private <R> R withRetries(String method, Supplier<R> attempt) {
        int failed = 0;
        while (true) {
            try {
                counters.request();
                return attempt.get();
            } catch (RpcException e) {
                counters.failure();
                failed++;
                if (!e.isTransient() || failed >= retry.maxAttempts() || Thread.currentThread().isInterrupted()) {
                    if (e.isTransient()) {
                        counters.giveUp();
                    }
                    throw e;
                }
                counters.retry();
                Duration pause = retry.backoff(failed, ThreadLocalRandom.current());
                log.debug("{} at {} failed (attempt {}), retrying in {} ms: {}", method, endpointName(), failed,
                        pause.toMillis(), e.getMessage());
                try {
                    sleeper.sleep(pause);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    private <T extends Response<?>> T callOnce(String method, List<?> params, Class<T> type) {
        long id = ids.getAndIncrement();
        JsonNode answer = readTree(method, post(method, write(method, request(id, method, params))));
        if (!answer.isObject()) {
            throw malformed(method, "the answer is not a JSON object");
        }
        return toResponse(method, id, answer, type);
    }

    private <T extends Response<?>> List<T> batchOnce(String method, List<? extends List<?>> chunk, Class<T> type) {
        long firstId = ids.getAndAdd(chunk.size());
        ArrayNode requests = json.createArrayNode();
        for (int i = 0; i < chunk.size(); i++) {
            requests.add(request(firstId + i, method, chunk.get(i)));
        }
        JsonNode answer = readTree(method, post(method, write(method, requests)));
        if (answer.isObject() && answer.hasNonNull("error")) {
            throw RpcErrors.fromError(method, json.convertValue(answer.get("error"), Response.Error.class));
        }
        if (!answer.isArray()) {
            throw malformed(method, "the answer to a batch is not a JSON array");
        }
        Map<Long, JsonNode> byId = new HashMap<>();
        answer.forEach(element -> byId.put(element.path("id").asLong(-1), element));
        List<T> responses = new ArrayList<>(chunk.size());
        for (int i = 0; i < chunk.size(); i++) {
            JsonNode element = byId.get(firstId + i);
            if (element == null) {
                throw malformed(method, "the batch answer lacks request " + (firstId + i));
            }
            responses.add(toResponse(method, firstId + i, element, type));
        }
        return responses;
    }

    private ObjectNode request(long id, String method, List<?> params) {
        ObjectNode request = json.createObjectNode();
        request.put("jsonrpc", "2.0");
        request.put("id", id);
        request.put("method", method);
        request.set("params", json.valueToTree(params));
        return request;
    }

    private <T extends Response<?>> T toResponse(String method, long id, JsonNode answer, Class<T> type) {
        if (answer.path("id").asLong(-1) != id) {
            throw malformed(method, "the answer belongs to another request");
        }
        if (answer.hasNonNull("error")) {
            throw RpcErrors.fromError(method, json.convertValue(answer.get("error"), Response.Error.class));
        }
        if (!answer.has("result")) {
            throw malformed(method, "the answer has neither result nor error");
        }
        try {
            return json.treeToValue(answer, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw malformed(method, "the result does not parse: " + e.getMessage());
        }
    }

    private String post(String method, String body) {
        HttpRequest request = HttpRequest.newBuilder(endpoint)
                .timeout(requestTimeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw RpcException.transientFailure(method, "I/O failure: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw RpcException.transientFailure(method, "interrupted", e);
        }
        int status = response.statusCode();
        if (status == 200) {
            return response.body();
        }
        if (RpcErrors.isTransientStatus(status)) {
            throw RpcException.transientFailure(method, "HTTP " + status, null);
        }
        JsonNode error = tryReadTree(response.body()).path("error");
        if (error.isObject()) {
            throw RpcErrors.fromError(method, json.convertValue(error, Response.Error.class));
        }
        throw new RpcException(RpcException.Kind.PERMANENT, method, "HTTP " + status, null, null, null);
    }

    private String write(String method, JsonNode request) {
        try {
            return json.writeValueAsString(request);
        } catch (JsonProcessingException e) {
            throw RpcException.permanent(method, "cannot encode the request: " + e.getOriginalMessage());
        }
    }

    private JsonNode readTree(String method, String body) {
        try {
            JsonNode node = json.readTree(body);
            if (node == null || node.isMissingNode()) {
                throw malformed(method, "empty answer");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw malformed(method, "the answer is not JSON");
        }
    }

    private JsonNode tryReadTree(String body) {
        try {
            JsonNode node = json.readTree(body);
            return node == null ? json.missingNode() : node;
        } catch (JsonProcessingException e) {
            return json.missingNode();
        }
    }

    private static RpcException malformed(String method, String detail) {
        return RpcException.transientFailure(method, "malformed answer: " + detail, null);
    }
}
