package io.chanledger.api.gateway;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JSON-RPC proxy on loopback in front of a node. Down, it answers 503 to every method except
 * those it is told to keep serving, as an overloaded public endpoint does; up, it forwards all.
 */
public final class SwitchableRpcProxy implements AutoCloseable {

    private static final Pattern METHOD = Pattern.compile("\"method\"\\s*:\\s*\"([A-Za-z_]+)\"");

    private final HttpServer server;
    private final URI node;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final Set<String> servedWhileDown;
    private final AtomicLong refused = new AtomicLong();
    private volatile boolean down;

    public SwitchableRpcProxy(String nodeUrl, Set<String> servedWhileDown) {
        this.node = URI.create(nodeUrl);
        this.servedWhileDown = servedWhileDown;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 32);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "switchable-rpc-proxy");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public void down(boolean isDown) {
        down = isDown;
    }

    public long refused() {
        return refused.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            Matcher method = METHOD.matcher(new String(body, StandardCharsets.UTF_8));
            if (down && !(method.find() && servedWhileDown.contains(method.group(1)))) {
                refused.incrementAndGet();
                respond(exchange, 503, "<html>service unavailable</html>".getBytes(StandardCharsets.UTF_8));
                return;
            }
            HttpRequest forward = HttpRequest.newBuilder(node).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
            try {
                respond(exchange, 200, client.send(forward, HttpResponse.BodyHandlers.ofByteArray()).body());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void respond(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
