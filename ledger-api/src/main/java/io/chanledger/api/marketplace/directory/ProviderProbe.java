package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.config.ProtocolProperties;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.provider.ModelPrice;
import java.io.IOException;
import java.net.Proxy;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.RequestBody;
import org.springframework.stereotype.Component;

/**
 * Calls a provider's public endpoints: {@code /v1/pricing}, {@code /v1/docs} and the unpaid probe
 * of {@code POST /v1/chat/completions} for the connection test; {@code /v1/models} and
 * {@code /v1/pricing} (the pricing side), {@code /v1/docs} and the chat probe (the inference side)
 * for health checks. Redirects are not followed, each call is bounded in time and in response
 * size, and the calls of one test or check go to a {@link ProviderTarget}: the host resolved once
 * and checked against the {@link AddressPolicy}, connected to at exactly the addresses checked.
 *
 * <p>The deployed marketplace shows agents only providers whose inference side is up
 * (docs/protocol.md §D.7): a {@code /v1/docs} that explains their use in at least
 * {@value #MIN_DOCS_CHARACTERS} characters, since agents read it before their first request (else
 * the check {@value #DOCS_MISSING} fails), and a chat endpoint that answers a request without a
 * voucher with 402 and the payment terms of docs/protocol.md §C.1 (else {@value #CHAT_PROBE}). The
 * probe sends no voucher, so it costs the provider nothing: no charge, no upstream call.
 */
@Component
class ProviderProbe {

    static final String DOCS_MISSING = "docs_missing";
    static final int MIN_DOCS_CHARACTERS = 100;
    static final String CHAT_PROBE = "chat_probe";
    /** The payment terms a 402 must carry besides {@code X-Payment-Protocol} (docs/protocol.md §5). */
    static final List<String> PAYMENT_HEADERS = List.of("X-Payment-Provider", "X-Payment-Contract", "X-Payment-Chain",
            "X-Payment-Signing", "X-Payment-Docs");
    private static final String CHAT_PATH = "/v1/chat/completions";

    /** What a provider answered: its models and prices, and how long {@code latencyOf} took. */
    record Answer(List<ModelPrice> models, long latencyMs) {
    }

    /** What the connection test found: the pricing side's answer, and why the chat probe failed (null: it passed). */
    record ConnectionTest(Answer answer, String chatProbeFailure) {
    }

    private static final MediaType JSON = MediaType.get("application/json");

    private final OkHttpClient client;
    private final ObjectMapper mapper;
    private final AddressPolicy policy;
    private final int maxResponseBytes;
    private final long chainId;

    ProviderProbe(MarketplaceProperties properties, ChainProperties chain, ObjectMapper mapper) {
        this.client = new OkHttpClient.Builder()
                .followRedirects(false)
                .followSslRedirects(false)
                .protocols(List.of(Protocol.HTTP_1_1))
                // a proxy would resolve the name itself, past the check
                .proxy(Proxy.NO_PROXY)
                .connectTimeout(properties.registration().connectionTimeout())
                .build();
        this.mapper = mapper;
        this.policy = new AddressPolicy(properties.allowPrivateAddresses(), properties.refusedAddressBlocks());
        this.maxResponseBytes = properties.registration().maxResponseBytes();
        this.chainId = chain.chainId();
    }

    /** The provider at {@code apiUrl}, for the calls of one test or check; close it when they are done. */
    ProviderTarget target(URI apiUrl) {
        return new ProviderTarget(apiUrl, policy, client, maxResponseBytes);
    }

    /**
     * The connection test: {@code GET {apiUrl}/v1/pricing}, then {@code /v1/docs}, then the chat
     * probe, all within {@code timeout}, all to the addresses the host resolved to once. A failed
     * chat probe does not fail the test (the deployed marketplace's registration asks only for
     * pricing): it is answered, and the provider is not shown to agents until a health check finds
     * its inference side up.
     */
    ConnectionTest connectionTest(URI apiUrl, String address, Duration timeout) throws ProbeFailure {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (ProviderTarget target = target(apiUrl)) {
            long started = System.nanoTime();
            JsonNode body = getJson(target, "/v1/pricing", deadline);
            long latency = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            List<ModelPrice> prices = PricingDocument.parse(body, address, chainId);
            checkDocs(target, deadline);
            String chatProbeFailure = null;
            try {
                checkChat(target, address, prices.getFirst().id(), deadline);
            } catch (ProbeFailure failure) {
                chatProbeFailure = failure.getMessage();
            }
            return new ConnectionTest(new Answer(prices, latency), chatProbeFailure);
        }
    }

    /**
     * A health check's pricing side: {@code /v1/models} must list models, {@code /v1/pricing} must
     * price them; each call within {@code timeout}.
     */
    Answer pricing(ProviderTarget target, String address, Duration timeout) throws ProbeFailure {
        long started = System.nanoTime();
        JsonNode models = getJson(target, "/v1/models", started + timeout.toNanos());
        long latency = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        JsonNode data = models.get("data");
        if (data == null || !data.isArray()) {
            throw new ProbeFailure("/v1/models did not answer with a model list");
        }
        List<ModelPrice> prices = PricingDocument.parse(getJson(target, "/v1/pricing", System.nanoTime()
                + timeout.toNanos()), address, chainId);
        return new Answer(prices, latency);
    }

    /**
     * A health check's inference side: {@code /v1/docs} must explain the provider's use, and its
     * chat endpoint must ask for payment as the protocol says (a request for {@code model}, any
     * of its models, without a voucher); each call within {@code timeout}.
     */
    void inference(ProviderTarget target, String address, String model, Duration timeout) throws ProbeFailure {
        checkDocs(target, System.nanoTime() + timeout.toNanos());
        checkChat(target, address, model, System.nanoTime() + timeout.toNanos());
    }

    /**
     * {@code POST /v1/chat/completions} without a voucher answers 402 with {@code X-Payment-Protocol:
     * chan-v2} and the other payment terms, naming the provider's own address and this service's
     * chain: what an agent meets before it pays (docs/protocol.md §C.1). A 200 would mean the
     * provider serves unpaid requests (or is not a Chan provider at all), a 5xx that it is broken.
     */
    private void checkChat(ProviderTarget target, String address, String model, long deadlineNanos)
            throws ProbeFailure {
        ObjectNode body = mapper.createObjectNode().put("model", model == null ? "probe" : model).put("max_tokens", 1);
        body.putArray("messages").addObject().put("role", "user").put("content", "ping");
        Request.Builder request;
        try {
            request = new Request.Builder().header("Accept", "application/json")
                    .post(RequestBody.create(mapper.writeValueAsBytes(body), JSON));
        } catch (IOException e) {
            throw new IllegalStateException("the chat probe's body could not be written", e);
        }
        ProviderTarget.Reply response = target.send(CHAT_PATH, request, deadlineNanos);
        if (response.status() != 402) {
            throw new ProbeFailure(CHAT_PROBE, CHAT_PATH + " without a voucher answered HTTP " + response.status()
                    + "; it must answer 402 with the payment terms (X-Payment-* headers)");
        }
        String protocol = response.header("X-Payment-Protocol").orElse(null);
        if (!ProtocolProperties.NAME.equals(protocol)) {
            throw new ProbeFailure(CHAT_PROBE, CHAT_PATH + " answered 402 with X-Payment-Protocol "
                    + (protocol == null ? "missing" : "'" + clip(protocol) + "'") + "; it must be "
                    + ProtocolProperties.NAME);
        }
        List<String> missing = PAYMENT_HEADERS.stream()
                .filter(name -> response.header(name).filter(v -> !v.isBlank()).isEmpty()).toList();
        if (!missing.isEmpty()) {
            throw new ProbeFailure(CHAT_PROBE, CHAT_PATH + " answered 402 without " + String.join(", ", missing));
        }
        String provider = response.header("X-Payment-Provider").orElseThrow();
        if (!provider.equalsIgnoreCase(address)) {
            throw new ProbeFailure(CHAT_PROBE, CHAT_PATH + " answered 402 with X-Payment-Provider '" + clip(provider)
                    + "', not the provider's address " + Hex.toChecksumAddress(address));
        }
        String chain = response.header("X-Payment-Chain").orElseThrow();
        if (!chain.equals(Long.toString(chainId))) {
            throw new ProbeFailure(CHAT_PROBE, CHAT_PATH + " answered 402 with X-Payment-Chain '" + clip(chain)
                    + "', not this marketplace's chain " + chainId);
        }
    }

    private static String clip(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "…";
    }

    /** {@code /v1/docs} answers 200 with at least {@value #MIN_DOCS_CHARACTERS} characters of text. */
    private void checkDocs(ProviderTarget target, long deadlineNanos) throws ProbeFailure {
        ProviderTarget.Reply response = get(target, "/v1/docs", deadlineNanos, "text/plain, text/markdown, */*");
        if (response.status() != 200) {
            throw new ProbeFailure(DOCS_MISSING, "/v1/docs answered HTTP " + response.status() + "; agents read "
                    + "it before their first request, and providers without it are not listed");
        }
        String text = new String(response.body(), StandardCharsets.UTF_8).strip();
        int characters = text.codePointCount(0, text.length());
        if (characters < MIN_DOCS_CHARACTERS) {
            throw new ProbeFailure(DOCS_MISSING, "/v1/docs has " + characters + " characters; at least "
                    + MIN_DOCS_CHARACTERS + " are needed to tell agents how to call the provider");
        }
    }

    private JsonNode getJson(ProviderTarget target, String path, long deadlineNanos) throws ProbeFailure {
        ProviderTarget.Reply response = get(target, path, deadlineNanos, "application/json");
        if (response.status() != 200) {
            throw new ProbeFailure(path + " answered HTTP " + response.status());
        }
        try {
            return mapper.readTree(response.body());
        } catch (IOException e) {
            throw new ProbeFailure(path + " did not answer with JSON");
        }
    }

    private static ProviderTarget.Reply get(ProviderTarget target, String path, long deadlineNanos, String accept)
            throws ProbeFailure {
        return target.send(path, new Request.Builder().header("Accept", accept).get(), deadlineNanos);
    }
}
