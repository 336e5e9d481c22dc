package io.chanledger.api.gasstation;

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
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A JSON-RPC proxy on loopback in front of a node, which can be cut: while cut, every request is
 * answered 503 and nothing reaches the node. The cut can be armed to happen at the first request
 * of one method, which is then forwarded with its answer, forwarded with its answer lost, or
 * dropped before it reaches the node.
 */
final class CuttableRpcProxy implements AutoCloseable {

    enum At { AFTER_ANSWER, AFTER_FORWARD_ANSWER_LOST, BEFORE_FORWARD }

    private final HttpServer server;
    private final URI upstream;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final AtomicInteger forwardedArmed = new AtomicInteger();
    private volatile boolean cut;
    private volatile String armedMethod;
    private volatile At armedAt;

    CuttableRpcProxy(String upstreamUrl) {
        this.upstream = URI.create(upstreamUrl);
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "cuttable-rpc-proxy");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Cuts the connection to the node at the first request of {@code method}, as {@code at} says. */
    void cutAt(String method, At at) {
        armedAt = at;
        armedMethod = method;
    }

    /** Requests of the armed method that reached the node. */
    int armedRequestsForwarded() {
        return forwardedArmed.get();
    }

    boolean isCut() {
        return cut;
    }

    void restore() {
        armedMethod = null;
        cut = false;
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String text = new String(body, StandardCharsets.UTF_8);
            String method = armedMethod;
            if (!cut && method != null && text.contains("\"method\":\"" + method + "\"")) {
                synchronized (this) {
                    if (!cut) {
                        cut = true;
                        handleArmed(exchange, body, armedAt);
                        return;
                    }
                }
            }
            if (cut) {
                respond(exchange, 503, "{\"error\":\"upstream unavailable\"}");
                return;
            }
            respond(exchange, 200, forward(body));
        }
    }

    private void handleArmed(HttpExchange exchange, byte[] body, At at) throws IOException {
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
}
