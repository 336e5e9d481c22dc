package io.chanledger.api.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executors;
import java.util.function.Predicate;

/**
 * The HTTP services the test gateway's service models call (application-test.yml), on loopback,
 * one per test run: {@code POST /scrape} answers a page for {@code {"url"}}, and fails as the URL
 * asks ({@code …/status/500}: HTTP 500; {@code …/slow}: after 3 s; {@code …/huge}: 100 KB;
 * {@code …/text}: plain text instead of JSON; {@code …/html}: an HTML page; {@code …/malformed}:
 * broken JSON), or answers 200 without a result ({@code …/empty}: an empty body; {@code …/null}:
 * JSON null; {@code …/empty-object}: {@code {}}; {@code …/error-object}: an {@code error} object;
 * {@code …/off-schema}: a page whose content is not text, as page-fetch's answer schema wants),
 * or answers late but within the gateway's timeout ({@code …/late}: after 600 ms);
 * {@code GET /lease/{country}} answers a lease. Every
 * request is recorded as received, so a test can find its own by a value only it sent.
 */
public final class ServiceStub {

    /** A request as the stub received it; header names in lower case. */
    public record Received(String method, String path, String query, Map<String, List<String>> headers, String body) {

        public String header(String name) {
            List<String> values = headers.get(name.toLowerCase());
            return values == null || values.isEmpty() ? null : values.get(0);
        }
    }

    private static final ServiceStub SHARED = new ServiceStub();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ConcurrentLinkedDeque<Received> received = new ConcurrentLinkedDeque<>();

    private ServiceStub() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/scrape", this::scrape);
        server.createContext("/lease/", this::lease);
        server.setExecutor(Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "service-stub");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    public static ServiceStub shared() {
        return SHARED;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    /** The latest request that {@code matches}, if any arrived. */
    public Optional<Received> find(Predicate<Received> matches) {
        return received.stream().filter(matches).reduce((first, second) -> second);
    }

    private Received record(HttpExchange exchange) throws IOException {
        Map<String, List<String>> headers = new TreeMap<>();
        exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(), List.copyOf(values)));
        Received request = new Received(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                exchange.getRequestURI().getRawQuery(), headers,
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        received.add(request);
        return request;
    }

    private void scrape(HttpExchange exchange) throws IOException {
        try (exchange) {
            Received request = record(exchange);
            JsonNode body = request.body().isEmpty() ? JSON.nullNode() : JSON.readTree(request.body());
            String url = body.path("url").asText("");
            if (url.endsWith("/status/500")) {
                respond(exchange, 500, "application/json", "{\"error\":\"upstream details\"}");
            } else if (url.endsWith("/slow")) {
                pause(3_000);
                respond(exchange, 200, "application/json", "{\"late\":true}");
            } else if (url.endsWith("/huge")) {
                respond(exchange, 200, "application/json", "{\"content\":\"" + "x".repeat(100_000) + "\"}");
            } else if (url.endsWith("/late")) {
                pause(600);
                respond(exchange, 200, "application/json", JSON.createObjectNode().put("url", url)
                        .put("content", "# Late page").toString());
            } else if (url.endsWith("/html")) {
                respond(exchange, 200, "text/html", "<html><body><h1>502 Bad Gateway</h1></body></html>");
            } else if (url.endsWith("/malformed")) {
                respond(exchange, 200, "application/json", "{\"content\": \"# Example");
            } else if (url.endsWith("/empty")) {
                respond(exchange, 200, "application/json", "");
            } else if (url.endsWith("/null")) {
                respond(exchange, 200, "application/json", "null");
            } else if (url.endsWith("/empty-object")) {
                respond(exchange, 200, "application/json", "{}");
            } else if (url.endsWith("/error-object")) {
                respond(exchange, 200, "application/json", "{\"error\":{\"message\":\"upstream details\","
                        + "\"code\":\"quota_exceeded\"}}");
            } else if (url.endsWith("/off-schema")) {
                respond(exchange, 200, "application/json", JSON.createObjectNode().put("url", url)
                        .set("content", JSON.createObjectNode().put("html", "<p>upstream details</p>")).toString());
            } else if (url.endsWith("/text")) {
                respond(exchange, 200, "text/plain", "plain words, \"quoted\"");
            } else {
                respond(exchange, 200, "application/json", JSON.createObjectNode().put("url", url)
                        .put("format", body.path("format").asText("markdown")).put("content", "# Example page")
                        .toString());
            }
        }
    }

    private void lease(HttpExchange exchange) throws IOException {
        try (exchange) {
            Received request = record(exchange);
            List<String> pairs = request.query() == null ? List.of() : List.of(request.query().split("&"));
            List<String> answered = new ArrayList<>(pairs);
            respond(exchange, 200, "application/json", JSON.createObjectNode()
                    .put("country", request.path().substring("/lease/".length()))
                    .put("query", String.join("&", answered)).put("endpoint", "vpn.example:51820").toString());
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void respond(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        try {
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
        } catch (IOException clientGone) {
            // the gateway gave up (timeout, size limit): nothing left to answer
        }
    }
}
