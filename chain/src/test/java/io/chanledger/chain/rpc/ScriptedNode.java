package io.chanledger.chain.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;

/** A JSON-RPC "node" on loopback that answers each request with the next scripted reply. */
final class ScriptedNode implements AutoCloseable {

    /** A reply: HTTP status and a body made from the request (so it can echo the id). */
    record Reply(int status, Function<JsonNode, String> body, long delayMillis) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ConcurrentLinkedQueue<Reply> script = new ConcurrentLinkedQueue<>();
    private final List<JsonNode> received = new ArrayList<>();

    ScriptedNode() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            try (exchange) {
                JsonNode request = JSON.readTree(exchange.getRequestBody());
                synchronized (received) {
                    received.add(request);
                }
                Reply reply = script.poll();
                if (reply == null) {
                    reply = new Reply(500, r -> "no scripted reply left", 0);
                }
                if (reply.delayMillis() > 0) {
                    try {
                        Thread.sleep(reply.delayMillis());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                byte[] bytes = reply.body().apply(request).getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(reply.status(), bytes.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    ScriptedNode then(int status, Function<JsonNode, String> body) {
        script.add(new Reply(status, body, 0));
        return this;
    }

    ScriptedNode thenSlow(long delayMillis, Function<JsonNode, String> body) {
        script.add(new Reply(200, body, delayMillis));
        return this;
    }

    ScriptedNode thenResult(String resultJson) {
        return then(200, request -> answer(request, resultJson));
    }

    ScriptedNode thenError(int code, String message) {
        return then(200, request -> "{\"jsonrpc\":\"2.0\",\"id\":" + request.path("id") + ",\"error\":{\"code\":" + code
                + ",\"message\":\"" + message + "\"}}");
    }

    static String answer(JsonNode request, String resultJson) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + request.path("id") + ",\"result\":" + resultJson + "}";
    }

    /** Answers a batch in reverse order, each with its first parameter (a hex number) as result. */
    static String reversedBlockNumbers(JsonNode batch) {
        List<String> answers = new ArrayList<>();
        batch.forEach(request -> answers.add(0, answer(request, "\"" + request.path("params").path(0).asText() + "\"")));
        return "[" + String.join(",", answers) + "]";
    }

    int requestCount() {
        synchronized (received) {
            return received.size();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
