package io.chanledger.api.marketplace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.web.LimitedBody;
import io.chanledger.domain.provider.ModelPrice;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.stereotype.Component;

/**
 * Calls a provider's public endpoints: {@code /v1/pricing} and {@code /v1/docs} for the connection
 * test, and {@code /v1/models}, {@code /v1/pricing} and {@code /v1/docs} for health checks.
 * Redirects are not followed, each call is bounded in time and in response size, and the host is
 * checked against the {@link AddressPolicy} before every call.
 *
 * <p>The deployed marketplace lists only providers whose {@code /v1/docs} explains their use in
 * at least {@value #MIN_DOCS_CHARACTERS} characters, since agents read it before their first
 * request (docs/protocol.md §D.7); a provider without it fails the check {@value #DOCS_MISSING}.
 */
@Component
class ProviderProbe {

    static final String DOCS_MISSING = "docs_missing";
    static final int MIN_DOCS_CHARACTERS = 100;

    /** What a provider answered: its models and prices, and how long {@code latencyOf} took. */
    record Answer(List<ModelPrice> models, long latencyMs) {
    }

    private final HttpClient client;
    private final ObjectMapper mapper;
    private final AddressPolicy policy;
    private final int maxResponseBytes;
    private final long chainId;

    ProviderProbe(MarketplaceProperties properties, ChainProperties chain, ObjectMapper mapper) {
        this.client = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(properties.registration().connectionTimeout())
                .build();
        this.mapper = mapper;
        this.policy = new AddressPolicy(properties.allowPrivateAddresses());
        this.maxResponseBytes = properties.registration().maxResponseBytes();
        this.chainId = chain.chainId();
    }

    /** Refuses a URL this service may not call; registration reports it as the apiUrl's fault. */
    void checkAllowed(URI apiUrl) throws AddressPolicy.BlockedAddressException, ProbeFailure {
        policy.check(apiUrl);
    }

    /** The connection test: {@code GET {apiUrl}/v1/pricing}, then {@code /v1/docs}, all within {@code timeout}. */
    Answer connectionTest(URI apiUrl, String address, Duration timeout) throws ProbeFailure {
        long deadline = System.nanoTime() + timeout.toNanos();
        long started = System.nanoTime();
        JsonNode body = getJson(apiUrl, "/v1/pricing", deadline);
        long latency = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        List<ModelPrice> prices = PricingDocument.parse(body, address, chainId);
        checkDocs(apiUrl, deadline);
        return new Answer(prices, latency);
    }

    /**
     * A health check: {@code /v1/models} must list models, {@code /v1/pricing} must price them,
     * {@code /v1/docs} must explain them; each call within {@code timeout}.
     */
    Answer health(URI apiUrl, String address, Duration timeout) throws ProbeFailure {
        long started = System.nanoTime();
        JsonNode models = getJson(apiUrl, "/v1/models", started + timeout.toNanos());
        long latency = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        JsonNode data = models.get("data");
        if (data == null || !data.isArray()) {
            throw new ProbeFailure("/v1/models did not answer with a model list");
        }
        List<ModelPrice> prices = PricingDocument.parse(getJson(apiUrl, "/v1/pricing", System.nanoTime()
                + timeout.toNanos()), address, chainId);
        checkDocs(apiUrl, System.nanoTime() + timeout.toNanos());
        return new Answer(prices, latency);
    }

    /** {@code /v1/docs} answers 200 with at least {@value #MIN_DOCS_CHARACTERS} characters of text. */
    private void checkDocs(URI apiUrl, long deadlineNanos) throws ProbeFailure {
        HttpResponse<byte[]> response = get(apiUrl, "/v1/docs", deadlineNanos, "text/plain, text/markdown, */*");
        if (response.statusCode() != 200) {
            throw new ProbeFailure(DOCS_MISSING, "/v1/docs answered HTTP " + response.statusCode() + "; agents read "
                    + "it before their first request, and providers without it are not listed");
        }
        String text = new String(response.body(), StandardCharsets.UTF_8).strip();
        int characters = text.codePointCount(0, text.length());
        if (characters < MIN_DOCS_CHARACTERS) {
            throw new ProbeFailure(DOCS_MISSING, "/v1/docs has " + characters + " characters; at least "
                    + MIN_DOCS_CHARACTERS + " are needed to tell agents how to call the provider");
        }
    }

    private JsonNode getJson(URI apiUrl, String path, long deadlineNanos) throws ProbeFailure {
        HttpResponse<byte[]> response = get(apiUrl, path, deadlineNanos, "application/json");
        if (response.statusCode() != 200) {
            throw new ProbeFailure(path + " answered HTTP " + response.statusCode());
        }
        try {
            return mapper.readTree(response.body());
        } catch (IOException e) {
            throw new ProbeFailure(path + " did not answer with JSON");
        }
    }

    private HttpResponse<byte[]> get(URI apiUrl, String path, long deadlineNanos, String accept) throws ProbeFailure {
        try {
            policy.check(apiUrl);
        } catch (AddressPolicy.BlockedAddressException e) {
            throw new ProbeFailure(e.getMessage());
        }
        long remaining = deadlineNanos - System.nanoTime();
        if (remaining <= 0) {
            throw new ProbeFailure(path + " was not called: no time left");
        }
        URI target = URI.create(apiUrl.toString() + path);
        HttpRequest request = HttpRequest.newBuilder(target)
                .timeout(Duration.ofNanos(remaining))
                .header("Accept", accept)
                .header("User-Agent", "chan-marketplace-probe")
                .GET()
                .build();
        CompletableFuture<HttpResponse<byte[]>> call = client.sendAsync(request, LimitedBody.handler(maxResponseBytes));
        HttpResponse<byte[]> response;
        try {
            response = call.get(remaining, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            call.cancel(true);
            throw new ProbeFailure(path + " did not answer in time");
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new ProbeFailure(path + " was interrupted");
        } catch (ExecutionException e) {
            throw new ProbeFailure(path + " failed: " + describe(e.getCause()));
        }
        return response;
    }

    private static String describe(Throwable cause) {
        if (cause instanceof HttpTimeoutException) {
            return "no answer in time";
        }
        if (cause instanceof java.net.ConnectException) {
            return "connection refused or unreachable";
        }
        String message = cause == null ? null : cause.getMessage();
        return message == null || message.isBlank() ? (cause == null ? "unknown error" : cause.getClass().getSimpleName())
                : message;
    }
}
