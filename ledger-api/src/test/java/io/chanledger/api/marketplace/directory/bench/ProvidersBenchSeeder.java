package io.chanledger.api.marketplace.directory.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.chanledger.api.config.ProtocolProperties;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.provider.ProviderCategory;
import io.chanledger.domain.provider.RegistrationMessage;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.web3j.crypto.Hash;

/**
 * Seeds a running service for deploy/bench/providers-bench.sh: serves {@code providers} stub
 * providers with {@code models} priced models each from one loopback server (provider i lives
 * under /p/{address}), registers each with a wallet signature, approves it with the admin token,
 * waits until {@code GET /api/mcp/providers} lists them all, prints "ready" and keeps answering
 * health checks until its standard input closes.
 *
 * <p>Arguments: {@code --service=URL --admin-token=T [--providers=200] [--models=5]}.
 */
public final class ProvidersBenchSeeder {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final List<String> CATEGORIES = ProviderCategory.codes();
    /** The marketplace lists only providers whose /v1/docs has at least 100 characters. */
    private static final String DOCS = "Bench provider: POST /v1/chat/completions in the OpenAI chat format with an "
            + "X-CHAN-Voucher header; models and prices per 1,000 tokens are at /v1/pricing.";

    private final String service;
    private final String adminToken;
    private final int models;

    private ProvidersBenchSeeder(String service, String adminToken, int models) {
        this.service = service;
        this.adminToken = adminToken;
        this.models = models;
    }

    public static void main(String[] args) throws Exception {
        String service = option(args, "service", null);
        String token = option(args, "admin-token", null);
        int providers = Integer.parseInt(option(args, "providers", "200"));
        int models = Integer.parseInt(option(args, "models", "5"));
        if (service == null || token == null) {
            throw new IllegalArgumentException("--service and --admin-token are required");
        }
        ProvidersBenchSeeder seeder = new ProvidersBenchSeeder(service, token, models);
        HttpServer stub = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        stub.createContext("/p/", seeder::answer);
        stub.setExecutor(Executors.newFixedThreadPool(4));
        stub.start();
        String stubUrl = "http://127.0.0.1:" + stub.getAddress().getPort();

        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> work = new ArrayList<>();
        for (int i = 0; i < providers; i++) {
            int index = i;
            work.add(pool.submit(() -> {
                seeder.register(index, stubUrl);
                return null;
            }));
        }
        for (Future<?> future : work) {
            future.get();
        }
        pool.shutdown();
        seeder.awaitListed(providers);
        System.out.println("ready: " + providers + " providers of " + models + " models, stub at " + stubUrl);
        System.out.flush();
        while (System.in.read() >= 0) {
            // serve health checks until the bench closes our standard input
        }
        stub.stop(0);
        System.exit(0);
    }

    private static DigestSigner wallet(int index) {
        return new DigestSigner(Hash.sha3(("providers-bench-" + index).getBytes(StandardCharsets.UTF_8)));
    }

    private void register(int index, String stubUrl) throws Exception {
        DigestSigner wallet = wallet(index);
        String address = Hex.toChecksumAddress(wallet.address());
        String apiUrl = stubUrl + "/p/" + wallet.address();
        ObjectNode body = JSON.createObjectNode();
        body.put("name", String.format("Bench provider %03d", index));
        body.put("description", "Benchmark provider " + index + ": five chat models billed per token, "
                + "answering with OpenAI-compatible completions and X-CHAN-Voucher payments.");
        body.put("apiUrl", apiUrl);
        body.put("providerAddress", address);
        body.put("category", CATEGORIES.get(index % CATEGORIES.size()));
        body.put("tier", "community");
        body.put("contact", "ops+" + index + "@bench.example");
        body.put("docsUrl", apiUrl + "/v1/docs");
        body.put("nonce", "bench" + index + "n" + System.nanoTime());
        body.put("issuedAt", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        RegistrationMessage message = new RegistrationMessage(address, apiUrl, 137, body.get("nonce").asText(),
                body.get("issuedAt").asText());
        body.put("signature", Hex.encode(wallet.sign(message.digest())));
        HttpResponse<String> registered = send(HttpRequest.newBuilder(URI.create(service + "/api/directory/providers"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body.toString())));
        String id;
        if (registered.statusCode() == 201) {
            id = JSON.readTree(registered.body()).path("id").asText();
        } else if (registered.statusCode() == 409) {
            id = JSON.readTree(registered.body()).path("providerId").asText();
        } else {
            throw new IllegalStateException("registration " + index + " failed: " + registered.statusCode() + " "
                    + registered.body());
        }
        HttpResponse<String> approved = send(HttpRequest.newBuilder(URI.create(service + "/api/admin/providers/" + id
                + "/approve")).header("Authorization", "Bearer " + adminToken).POST(HttpRequest.BodyPublishers.noBody()));
        if (approved.statusCode() != 200) {
            throw new IllegalStateException("approval of " + id + " failed: " + approved.statusCode() + " " + approved.body());
        }
    }

    private void awaitListed(int providers) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode list = JSON.readTree(send(HttpRequest.newBuilder(URI.create(service + "/api/mcp/providers"))).body());
            if (list.path("count").asInt() >= providers) {
                return;
            }
            Thread.sleep(250);
        }
        // say why, from the directory, which lists every provider with its probe's last verdict
        JsonNode directory = JSON.readTree(send(HttpRequest.newBuilder(URI.create(service + "/api/directory/providers")))
                .body());
        String unlisted = "";
        for (JsonNode provider : directory.path("providers")) {
            if (!provider.path("status").path("online").asBoolean() || !provider.path("status").path("inferenceOnline")
                    .asBoolean()) {
                unlisted = "; " + provider.path("name").asText() + " is not listed, its status: " + provider.path("status");
                break;
            }
        }
        throw new IllegalStateException("the service did not list " + providers + " providers within two minutes"
                + unlisted);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return CLIENT.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** /p/{address}/v1/pricing, /v1/models, /v1/docs and /v1/chat/completions of one stub provider. */
    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            String[] parts = exchange.getRequestURI().getPath().split("/");
            if (parts.length == 6 && parts[4].equals("chat") && parts[5].equals("completions")) {
                paymentRequired(exchange, parts[2]);
                return;
            }
            String json;
            if (parts.length == 5 && parts[4].equals("pricing")) {
                json = pricing(parts[2]);
            } else if (parts.length == 5 && parts[4].equals("models")) {
                json = modelList();
            } else if (parts.length == 5 && parts[4].equals("docs")) {
                json = null;
            } else {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            byte[] body = (json == null ? DOCS : json).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", json == null ? "text/plain" : "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /**
     * What a Chan provider answers a chat request without a voucher: 402 with its payment terms. The
     * marketplace's inference probe lists only providers that do (docs/api.md, health checks).
     */
    private static void paymentRequired(HttpExchange exchange, String address) throws IOException {
        var headers = exchange.getResponseHeaders();
        headers.set("X-Payment-Protocol", ProtocolProperties.NAME);
        headers.set("X-Payment-Provider", Hex.toChecksumAddress(address));
        headers.set("X-Payment-Contract", "0x5FbDB2315678afecb367f032d93F642f64180aa3");
        headers.set("X-Payment-Chain", "137");
        headers.set("X-Payment-Signing", "http://127.0.0.1/api/chan/signing");
        headers.set("X-Payment-Docs", "http://127.0.0.1/p/" + address + "/v1/docs");
        headers.set("X-CHAN-Error", "voucher_required");
        headers.set("Content-Type", "application/json");
        byte[] body = "{\"error\":{\"message\":\"voucher required\",\"code\":\"voucher_required\"}}"
                .getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(402, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private String pricing(String address) {
        StringBuilder models = new StringBuilder();
        for (int m = 0; m < this.models; m++) {
            if (m > 0) {
                models.append(',');
            }
            models.append("\"bench-model-").append(m).append("\":{\"name\":\"Bench Model ").append(m)
                    .append("\",\"inputPer1kTokens\":\"0.000").append(m + 1).append("5\",\"outputPer1kTokens\":\"0.00")
                    .append(m + 1).append("\"}");
        }
        return "{\"provider\":\"" + address + "\",\"providerName\":\"bench\",\"chainId\":137,\"currency\":\"USDC\","
                + "\"decimals\":6,\"models\":{" + models + "}}";
    }

    private String modelList() {
        StringBuilder data = new StringBuilder();
        for (int m = 0; m < models; m++) {
            if (m > 0) {
                data.append(',');
            }
            data.append("{\"id\":\"bench-model-").append(m).append("\",\"object\":\"model\",\"created\":1763700000,"
                    + "\"owned_by\":\"bench\"}");
        }
        return "{\"object\":\"list\",\"data\":[" + data + "]}";
    }

    private static String option(String[] args, String name, String fallback) {
        for (String arg : args) {
            if (arg.startsWith("--" + name + "=")) {
                return arg.substring(name.length() + 3);
            }
        }
        return fallback;
    }
}
