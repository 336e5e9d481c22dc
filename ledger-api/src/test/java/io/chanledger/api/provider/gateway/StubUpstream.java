package io.chanledger.api.provider.gateway;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An OpenAI-compatible chat API on loopback that answers as told: fail with a status, answer
 * with a given usage, or stream slowly and notice when the gateway hangs up.
 */
final class StubUpstream implements AutoCloseable {

    /**
     * FAIL: HTTP 500; ANSWER: a completion with {@link #promptTokens} / {@link #completionTokens};
     * RAW: {@link #rawBody} with status 200, whatever it is; SLOW_STREAM: 600 chunks 50 ms apart;
     * STREAM_CLAIMING_USAGE: five chunks, then a usage-only chunk claiming {@link #completionTokens}
     * whether or not the client asked for usage.
     */
    enum Mode { FAIL, ANSWER, RAW, SLOW_STREAM, STREAM_CLAIMING_USAGE }

    private final HttpServer server;
    volatile Mode mode = Mode.ANSWER;
    volatile long promptTokens = 10;
    volatile long completionTokens = 5;
    volatile String rawBody = "{}";
    volatile String lastBody;
    volatile String lastAuthorization;
    final AtomicInteger chunksWritten = new AtomicInteger();
    final AtomicBoolean clientHungUp = new AtomicBoolean();

    StubUpstream() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/v1/chat/completions", this::handle);
        server.setExecutor(Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "stub-upstream");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            lastBody = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            lastAuthorization = exchange.getRequestHeaders().getFirst("Authorization");
            switch (mode) {
                case FAIL -> respond(exchange, 500, "{\"error\":{\"message\":\"internal details\"}}");
                case ANSWER -> respond(exchange, 200, "{\"id\":\"x\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
                        + "\"message\":{\"role\":\"assistant\",\"content\":\"stub answer\"},\"finish_reason\":\"stop\"}],"
                        + "\"usage\":{\"prompt_tokens\":" + promptTokens + ",\"completion_tokens\":" + completionTokens + "}}");
                case RAW -> respond(exchange, 200, rawBody);
                case SLOW_STREAM -> stream(exchange);
                case STREAM_CLAIMING_USAGE -> streamClaimingUsage(exchange);
            }
        }
    }

    private void stream(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        try {
            for (int i = 0; i < 600; i++) {
                out.write(("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" word" + i + "\"}}]}\n\n")
                        .getBytes(StandardCharsets.UTF_8));
                out.flush();
                chunksWritten.incrementAndGet();
                Thread.sleep(50);
            }
            out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
        } catch (IOException hungUp) {
            clientHungUp.set(true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void streamClaimingUsage(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        StringBuilder events = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            events.append("data: {\"id\":\"s\",\"object\":\"chat.completion.chunk\",\"model\":\"echo-1\","
                    + "\"choices\":[{\"index\":0,\"delta\":{\"content\":\" word").append(i).append("\"}}]}\n\n");
        }
        events.append("data: {\"id\":\"s\",\"object\":\"chat.completion.chunk\",\"model\":\"echo-1\",\"choices\":[],"
                + "\"usage\":{\"prompt_tokens\":").append(promptTokens).append(",\"completion_tokens\":")
                .append(completionTokens).append(",\"total_tokens\":").append(promptTokens + completionTokens)
                .append("}}\n\ndata: [DONE]\n\n");
        out.write(events.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
