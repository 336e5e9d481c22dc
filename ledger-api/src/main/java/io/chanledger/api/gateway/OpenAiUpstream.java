package io.chanledger.api.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Any OpenAI-compatible chat completions API at {@code baseUrl} ({@code POST {baseUrl}/chat/completions}).
 * The request body goes up byte for byte as the client sent it: the gateway adds no output limit
 * and asks for no usage the client did not ask for, so the answer is the one the client would
 * have had from the upstream directly. The API key goes in the Authorization header and nowhere
 * else. A stream is read line by line as server-sent events; closing it early closes the
 * connection, which cancels the upstream request.
 */
final class OpenAiUpstream implements Upstream {

    private final HttpClient http;
    private final URI endpoint;
    private final String apiKey;
    private final Duration timeout;
    private final ObjectMapper json;

    OpenAiUpstream(String baseUrl, String apiKey, Duration connectTimeout, Duration timeout, ObjectMapper json) {
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.endpoint = URI.create(base + "/chat/completions");
        this.apiKey = apiKey;
        this.timeout = timeout;
        this.json = json;
        // HTTP/1.1: a stream abandoned half-way closes its own connection instead of lingering in a pool
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    @Override
    public Completion complete(ChatRequest request) {
        HttpResponse<InputStream> response = send(request, "application/json");
        try (InputStream body = response.body()) {
            JsonNode answer = json.readTree(body);
            if (!(answer instanceof ObjectNode object)) {
                throw new UpstreamException("the upstream's answer is not a JSON object", null);
            }
            return new Completion(object, Usage.of(object.get("usage")), contentOf(object));
        } catch (IOException e) {
            throw new UpstreamException("the upstream's answer could not be read: " + e.getClass().getSimpleName(), e);
        }
    }

    @Override
    public Stream stream(ChatRequest request) {
        HttpResponse<InputStream> response = send(request, "text/event-stream");
        return new SseStream(response.body());
    }

    private HttpResponse<InputStream> send(ChatRequest request, String accept) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(endpoint)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", accept)
                .POST(HttpRequest.BodyPublishers.ofByteArray(request.sentBody()));
        if (!GatewayProperties.blank(apiKey)) {
            builder.header("Authorization", "Bearer " + apiKey);
        }
        HttpResponse<InputStream> response;
        try {
            response = http.send(builder.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new UpstreamException("the upstream could not be reached: " + e.getClass().getSimpleName(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UpstreamException("interrupted while calling the upstream", e);
        }
        if (response.statusCode() / 100 != 2) {
            closeQuietly(response.body());
            throw new UpstreamException("the upstream answered HTTP " + response.statusCode(), null);
        }
        return response;
    }

    private static String contentOf(JsonNode answer) {
        JsonNode content = answer.path("choices").path(0).path("message").path("content");
        return content.isTextual() ? content.textValue() : "";
    }

    private static void closeQuietly(InputStream body) {
        try {
            body.close();
        } catch (IOException ignored) {
            // the connection is being given up anyway
        }
    }

    private final class SseStream implements Stream {
        private final InputStream body;
        private final BufferedReader lines;
        private boolean ended;

        SseStream(InputStream body) {
            this.body = body;
            this.lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        }

        @Override
        public Chunk next() {
            if (ended) {
                return null;
            }
            try {
                String line;
                while ((line = lines.readLine()) != null) {
                    if (!line.startsWith("data:")) {
                        continue; // comments, event names, ids and the blank lines between events
                    }
                    String data = line.substring(5).strip();
                    if (data.equals("[DONE]")) {
                        ended = true;
                        return null;
                    }
                    return chunk(data);
                }
            } catch (IOException e) {
                throw new UpstreamException("the upstream stream broke off: " + e.getClass().getSimpleName(), e);
            }
            throw new UpstreamException("the upstream stream ended without [DONE]", null);
        }

        private Chunk chunk(String data) {
            JsonNode node;
            try {
                node = json.readTree(data);
            } catch (IOException e) {
                throw new UpstreamException("the upstream sent an event that is not JSON", e);
            }
            JsonNode choices = node.path("choices");
            JsonNode content = choices.path(0).path("delta").path("content");
            Usage usage = Usage.of(node.get("usage"));
            boolean usageOnly = usage != null && choices.isArray() && choices.isEmpty();
            return new Chunk(data, content.isTextual() ? content.textValue() : "", usage, usageOnly);
        }

        @Override
        public void close() {
            ended = true;
            closeQuietly(body);
        }
    }
}
