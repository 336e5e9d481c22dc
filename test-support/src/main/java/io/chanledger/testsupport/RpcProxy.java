package io.chanledger.testsupport;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An HTTP proxy on loopback in front of a JSON-RPC node, which forwards every request unchanged
 * until a test makes it misbehave the ways public endpoints do:
 * <ul>
 *   <li><b>faulty</b>: every other request fails, cycling through 503, 429, a truncated JSON
 *   body, an answer slower than the client's timeout, a dropped connection, and a body that is
 *   valid JSON but no answer ({@link #failingEveryOther});</li>
 *   <li><b>down</b>: every request is answered 503 and nothing reaches the node, except the
 *   methods it is told to keep serving, as an overloaded endpoint does ({@link #down},
 *   {@link #serveWhileDown});</li>
 *   <li><b>cut</b> at the first request of one method, which is then forwarded with its answer,
 *   forwarded with its answer lost, or dropped before it reaches the node; down from then on
 *   ({@link #cutAt}, {@link #restore});</li>
 *   <li>refusing an {@code eth_getLogs} over too many blocks ({@link #refuseLogRangesAbove});</li>
 *   <li>answering 503 to the requests of some methods only ({@link #unavailableFor}).</li>
 * </ul>
 */
public final class RpcProxy implements AutoCloseable {

    public enum Fault { UNAVAILABLE, RATE_LIMITED, TRUNCATED, SLOW, DROPPED, EMPTY_OBJECT }

    /** What happens to the request that cuts the connection. */
    public enum CutAt { AFTER_ANSWER, AFTER_FORWARD_ANSWER_LOST, BEFORE_FORWARD }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern METHOD = Pattern.compile("\"method\"\\s*:\\s*\"([A-Za-z_]+)\"");

    private final HttpServer server;
    private final URI upstream;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong faults = new AtomicLong();
    private final AtomicLong refusedRanges = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicInteger forwardedArmed = new AtomicInteger();
    private volatile boolean faulty;
    private volatile Duration slowDelay = Duration.ZERO;
    private volatile long maxLogRange = Long.MAX_VALUE;
    private volatile boolean down;
    private volatile Set<String> servedWhileDown = Set.of();
    private volatile Set<String> unavailableMethods = Set.of();
    private volatile String armedMethod;
    private volatile CutAt armedAt;

    /** A proxy that forwards every request. */
    public RpcProxy(String upstreamUrl) {
        this.upstream = URI.create(upstreamUrl);
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "rpc-proxy");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    /**
     * A proxy that fails every other request, from the start.
     *
     * @param slowDelay how long a SLOW answer takes; make it longer than the client's request timeout
     */
    public static RpcProxy failingEveryOther(String upstreamUrl, Duration slowDelay) {
        RpcProxy proxy = new RpcProxy(upstreamUrl);
        proxy.slowDelay = slowDelay;
        proxy.faulty = true;
        return proxy;
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Every request received, whatever became of it. */
    public long requests() {
        return requests.get();
    }

    public long faults() {
        return faults.get();
    }

    /** Turns the every-other-request faults off (every request forwarded) or back on. */
    public void faulty(boolean on) {
        faulty = on;
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

    /** The methods still forwarded while the proxy is down. */
    public RpcProxy serveWhileDown(Set<String> methods) {
        servedWhileDown = Set.copyOf(methods);
        return this;
    }

    /** Down: every request but those of the methods served while down is answered 503. */
    public void down(boolean isDown) {
        down = isDown;
    }

    /** From now on, requests of {@code methods} are answered 503 (counted in {@link #refused}); none: all are served. */
    public void unavailableFor(Set<String> methods) {
        unavailableMethods = Set.copyOf(methods);
    }

    /** Requests answered 503 because the proxy was down or their method unavailable. */
    public long refused() {
        return refused.get();
    }

    /** Goes down at the first request of {@code method}, which meets what {@code at} says. */
    public void cutAt(String method, CutAt at) {
        armedAt = at;
        armedMethod = method;
    }

    /** Requests of the armed method that reached the node. */
    public int armedRequestsForwarded() {
        return forwardedArmed.get();
    }

    /** Disarms the cut and comes back up. */
    public void restore() {
        armedMethod = null;
        down = false;
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            long n = requests.incrementAndGet();
            List<String> methods = methods(body);
            String armed = armedMethod;
            if (!down && armed != null && methods.contains(armed)) {
                synchronized (this) {
                    if (!down) {
                        down = true;
                        handleArmed(exchange, body, armedAt);
                        return;
                    }
                }
            }
            if (down && (methods.isEmpty() || !servedWhileDown.contains(methods.getFirst()))
                    || !methods.isEmpty() && unavailableMethods.contains(methods.getFirst())) {
                refused.incrementAndGet();
                respond(exchange, 503, "<html>service unavailable</html>");
                return;
            }
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

    private static List<String> methods(byte[] body) {
        Matcher method = METHOD.matcher(new String(body, StandardCharsets.UTF_8));
        List<String> methods = new ArrayList<>();
        while (method.find()) {
            methods.add(method.group(1));
        }
        return methods;
    }

    private void handleArmed(HttpExchange exchange, byte[] body, CutAt at) throws IOException {
        switch (at) {
            case AFTER_ANSWER -> {
                String answer = forward(body);
                forwardedArmed.incrementAndGet();
                respond(exchange, 200, answer);
            }
            case AFTER_FORWARD_ANSWER_LOST -> {
                forward(body);
                forwardedArmed.incrementAndGet();
                // no status line: the client sees the connection end without an answer
            }
            case BEFORE_FORWARD -> {
                // neither forwarded nor answered
            }
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
