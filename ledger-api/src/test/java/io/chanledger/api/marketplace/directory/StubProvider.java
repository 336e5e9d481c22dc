package io.chanledger.api.marketplace.directory;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.chanledger.domain.eip712.Hex;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * A provider on loopback (or an address a test names) that answers {@code /v1/pricing},
 * {@code /v1/models}, {@code /v1/docs} and {@code POST /v1/chat/completions} without a voucher (402
 * with the payment terms) the way the protocol describes (docs/protocol.md §C). Tests switch it down
 * (503), change its prices, its docs or how its chat endpoint answers, make it name another
 * address, or make it answer after a delay; it counts every request and keeps its Host header.
 */
final class StubProvider implements AutoCloseable {

    /** How {@code POST /v1/chat/completions} answers a request without a voucher. */
    enum ChatAnswer {
        /** 402 with {@code X-Payment-Protocol: chan-v2} and the other terms, as docs/protocol.md §C.1 says. */
        PAYMENT_REQUIRED,
        /** 402 with no {@code X-Payment-*} header. */
        PAYMENT_REQUIRED_WITHOUT_TERMS,
        /** 200 with a completion: it serves without payment. */
        SERVED_UNPAID,
        /** 500. */
        BROKEN
    }

    /** model id → {input, output, name or null} prices as decimal USDC strings. */
    private volatile Map<String, String[]> prices = new LinkedHashMap<>();
    private volatile String address;
    private volatile boolean down;
    private volatile long delayMillis;
    /** null: /v1/docs answers 404. */
    private volatile String docs = """
            Stub provider for tests. POST /v1/chat/completions in the OpenAI chat format with an X-CHAN-Voucher
            header; prices per 1,000 tokens are at /v1/pricing.""";
    private volatile ChatAnswer chat = ChatAnswer.PAYMENT_REQUIRED;
    private final AtomicInteger requests = new AtomicInteger();
    private final List<String> hosts = new CopyOnWriteArrayList<>();
    private final Filter seen = Filter.beforeHandler("counts every request", exchange -> {
        requests.incrementAndGet();
        hosts.add(String.valueOf(exchange.getRequestHeaders().getFirst("Host")));
    });
    private final AtomicInteger pricingCalls = new AtomicInteger();
    private final AtomicInteger chatCalls = new AtomicInteger();
    private final AtomicInteger chatCallsWithVoucher = new AtomicInteger();
    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(4);

    StubProvider(String address) {
        this(address, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    /** A stub listening on {@code bind} (a port of 0: any free one). */
    StubProvider(String address, InetSocketAddress bind) {
        this.address = address;
        try {
            server = HttpServer.create(bind, 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.createContext("/", this::notFound).getFilters().add(seen);
        server.createContext("/v1/pricing", this::pricing).getFilters().add(seen);
        server.createContext("/v1/models", this::models).getFilters().add(seen);
        server.createContext("/v1/docs", this::docs).getFilters().add(seen);
        server.createContext("/v1/chat/completions", this::chat).getFilters().add(seen);
        server.setExecutor(executor);
        server.start();
    }

    String url() {
        InetAddress bound = server.getAddress().getAddress();
        String host = bound.isAnyLocalAddress() ? "127.0.0.1"
                : bound instanceof Inet6Address ? "[" + bound.getHostAddress() + "]" : bound.getHostAddress();
        return "http://" + host + ":" + server.getAddress().getPort();
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** Every request it received, whatever its path. */
    int requests() {
        return requests.get();
    }

    /** The Host header of each request, in order. */
    List<String> hosts() {
        return List.copyOf(hosts);
    }

    StubProvider price(String model, String input, String output) {
        return price(model, null, input, output);
    }

    StubProvider price(String model, String name, String input, String output) {
        Map<String, String[]> next = new LinkedHashMap<>(prices);
        next.put(model, new String[]{input, output, name});
        prices = next;
        return this;
    }

    StubProvider withoutModels() {
        prices = new LinkedHashMap<>();
        return this;
    }

    void namesAddress(String other) {
        address = other;
    }

    void down(boolean value) {
        down = value;
    }

    void delay(long millis) {
        delayMillis = millis;
    }

    /** What /v1/docs answers from now on; null: 404. */
    void docs(String text) {
        docs = text;
    }

    /** How the chat endpoint answers from now on. */
    void chat(ChatAnswer answer) {
        chat = answer;
    }

    int pricingCalls() {
        return pricingCalls.get();
    }

    int chatCalls() {
        return chatCalls.get();
    }

    /** Chat requests that carried a voucher: a probe must send none, so that it costs nothing. */
    int chatCallsWithVoucher() {
        return chatCallsWithVoucher.get();
    }

    private void chat(HttpExchange exchange) throws IOException {
        chatCalls.incrementAndGet();
        if (exchange.getRequestHeaders().containsKey("X-CHAN-Voucher")) {
            chatCallsWithVoucher.incrementAndGet();
        }
        exchange.getRequestBody().readAllBytes();
        try (exchange) {
            ChatAnswer mode = chat;
            int status = down ? 503 : switch (mode) {
                case PAYMENT_REQUIRED, PAYMENT_REQUIRED_WITHOUT_TERMS -> 402;
                case SERVED_UNPAID -> 200;
                case BROKEN -> 500;
            };
            String json = switch (mode) {
                case SERVED_UNPAID -> "{\"id\":\"chatcmpl-stub\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
                        + "\"message\":{\"role\":\"assistant\",\"content\":\"free\"},\"finish_reason\":\"stop\"}]}";
                default -> "{\"error\":{\"message\":\"voucher required\",\"type\":\"payment_required\","
                        + "\"code\":\"voucher_required\"}}";
            };
            if (status == 402 && mode == ChatAnswer.PAYMENT_REQUIRED) {
                var headers = exchange.getResponseHeaders();
                headers.set("X-Payment-Protocol", "chan-v2");
                headers.set("X-Payment-Provider", Hex.toChecksumAddress(address));
                headers.set("X-Payment-Contract", "0x5FbDB2315678afecb367f032d93F642f64180aa3");
                headers.set("X-Payment-Chain", "137");
                headers.set("X-Payment-Signing", "http://127.0.0.1/api/chan/signing");
                headers.set("X-Payment-Docs", url() + "/v1/docs");
                headers.set("X-CHAN-Error", "voucher_required");
            }
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private void notFound(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.sendResponseHeaders(404, -1);
        }
    }

    private void pricing(HttpExchange exchange) throws IOException {
        pricingCalls.incrementAndGet();
        String models = prices.entrySet().stream()
                .map(e -> "\"" + e.getKey() + "\":{\"inputPer1kTokens\":\"" + e.getValue()[0]
                        + "\",\"outputPer1kTokens\":\"" + e.getValue()[1] + "\""
                        + (e.getValue()[2] == null ? "" : ",\"name\":\"" + e.getValue()[2] + "\"") + "}")
                .collect(Collectors.joining(","));
        answer(exchange, "{\"provider\":\"" + Hex.toChecksumAddress(address) + "\",\"providerName\":\"stub\","
                + "\"chainId\":137,\"currency\":\"USDC\",\"decimals\":6,\"models\":{" + models + "}}");
    }

    private void models(HttpExchange exchange) throws IOException {
        String data = prices.keySet().stream()
                .map(id -> "{\"id\":\"" + id + "\",\"object\":\"model\",\"created\":1763700000,\"owned_by\":\"stub\"}")
                .collect(Collectors.joining(","));
        answer(exchange, "{\"object\":\"list\",\"data\":[" + data + "]}");
    }

    private void docs(HttpExchange exchange) throws IOException {
        String text = docs;
        try (exchange) {
            if (text == null || down) {
                exchange.sendResponseHeaders(down ? 503 : 404, -1);
                return;
            }
            byte[] body = text.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private void answer(HttpExchange exchange, String json) throws IOException {
        try (exchange) {
            if (delayMillis > 0) {
                try {
                    Thread.sleep(delayMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            byte[] body = (down ? "{\"error\":\"down\"}" : json).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(down ? 503 : 200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
