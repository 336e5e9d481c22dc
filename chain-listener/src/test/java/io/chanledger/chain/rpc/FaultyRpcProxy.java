package io.chanledger.chain.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP proxy on loopback in front of a JSON-RPC node that fails every other request, cycling
 * through the faults public endpoints produce: 503, 429, a truncated JSON body, an answer slower
 * than the client's timeout, a dropped connection, and a body that is valid JSON but no answer.
 * The other requests are forwarded unchanged.
 */
public final class FaultyRpcProxy implements AutoCloseable {

    public enum Fault { UNAVAILABLE, RATE_LIMITED, TRUNCATED, SLOW, DROPPED, EMPTY_OBJECT }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final URI upstream;
    private final Duration slowDelay;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong faults = new AtomicLong();
    private volatile boolean faulty = true;
    private volatile long maxLogRange = Long.MAX_VALUE;
    private final AtomicLong refusedRanges = new AtomicLong();

    /** @param slowDelay how long a SLOW answer takes; make it longer than the client's request timeout */
    public FaultyRpcProxy(String upstreamUrl, Duration slowDelay) {
        this.upstream = URI.create(upstreamUrl);
        this.slowDelay = slowDelay;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "faulty-rpc-proxy");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public long requests() {
        return requests.get();
    }

    public long faults() {
        return faults.get();
    }

    /**
     * Refuses, like many providers, an {@code eth_getLogs} spanning more than {@code blocks} blocks
     * (a JSON-RPC error, not a transport fault), whether or not the other faults are on.
     */
    public void refuseLogRangesAbove(long blocks) {
        maxLogRange = blocks;
    }

    public long refusedRanges() {
        return refusedRanges.get();
    }

    /** Turns the faults off (every request forwarded) or back on. */
    public void faulty(boolean on) {
        faulty = on;
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            long n = requests.incrementAndGet();
            String refusal = refusal(body);
            if (refusal != null) {
                refusedRanges.incrementAndGet();
                respond(exchange, 200, refusal);
                return;
            }
            if (faulty && n % 2 == 0) {
                faults.incrementAndGet();
                Fault fault = Fault.values()[(int) ((n / 2) % Fault.values().length)];
                fail(exchange, fault, body);
                return;
            }
            respond(exchange, 200, forward(body));
        }
    }

    private void fail(HttpExchange exchange, Fault fault, byte[] body) throws IOException {
        switch (fault) {
            case UNAVAILABLE -> respond(exchange, 503, "<html>upstream unavailable</html>");
            case RATE_LIMITED -> respond(exchange, 429, "{\"error\":\"rate limited\"}");
            case TRUNCATED -> {
                String answer = forward(body);
                respond(exchange, 200, answer.substring(0, Math.max(1, answer.length() / 2)));
            }
            case SLOW -> {
                sleep(slowDelay);
                respond(exchange, 200, forward(body));
            }
            case DROPPED -> {
                // no status line: the client sees the connection end without an answer
            }
            case EMPTY_OBJECT -> respond(exchange, 200, "{}");
        }
    }

    /** The refusal of a single eth_getLogs request spanning too many blocks, or null. */
    private String refusal(byte[] body) {
        if (maxLogRange == Long.MAX_VALUE) {
            return null;
        }
        try {
            JsonNode request = JSON.readTree(body);
            if (!request.isObject() || !"eth_getLogs".equals(request.path("method").asText())) {
                return null;
            }
            JsonNode filter = request.path("params").path(0);
            long from = Long.decode(filter.path("fromBlock").asText());
            long to = Long.decode(filter.path("toBlock").asText());
            if (to - from + 1 <= maxLogRange) {
                return null;
            }
            return "{\"jsonrpc\":\"2.0\",\"id\":" + request.path("id") + ",\"error\":{\"code\":-32005,"
                    + "\"message\":\"block range is too wide, limit is " + maxLogRange + " blocks\"}}";
        } catch (IOException | RuntimeException notAQueryWeRefuse) {
            return null;
        }
    }

    private String forward(byte[] body) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(upstream)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString()).body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
