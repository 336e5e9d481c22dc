package io.chanledger.api.provider.gateway;

import io.chanledger.domain.eip712.Eip3009TypedData;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The provider gateway: {@code chan.gateway.*}. It runs wherever the provider's role does
 * ({@code chan.role} {@code provider} or {@code all}).
 *
 * @param providerKey the provider's private key (hex), normally {@code ${CHAN_GATEWAY_PROVIDER_KEY}};
 *        never logged, never rendered
 * @param providerKeyFile a file holding the key instead, read once at start-up
 * @param publicUrl the gateway's own base URL as agents reach it; taken from each request when unset
 * @param signingUrl the marketplace's {@code /api/chan/signing}; this service's own when unset
 * @param holdTtl how long a request's hold blocks its channel if the request is never settled
 *        (a crash mid-request); at least a minute longer than any upstream's longest deadline,
 *        which start-up checks
 * @param echoEndpoint also serve the echo backend, unpaid, at {@code /echo/v1/chat/completions},
 *        as an OpenAI-compatible upstream for local runs and the benchmark
 * @param upstreams the upstreams that serve the models, by name: each model names one
 *        ({@link Model#upstream()})
 * @param wordCountEndpoint also serve a word-count service, unpaid, at {@code /demo/word-count}, as
 *        an HTTP upstream for local runs and the benchmark
 * @param answerRetention how long a paid answer is kept for its voucher: re-sending the same voucher
 *        within it answers the kept answer again and charges nothing (an agent that lost the answer
 *        gets it back without paying twice)
 * @param answerMaxBytes the largest answer kept for its voucher; a larger one is still answered, but
 *        not kept
 * @param unsignedCloseInterval how often a channel may be given a close authorization asked for
 *        unsigned at a new amount (each may cost the provider a claim); sooner, the request is
 *        refused with 429 {@code rate_limited}. Asking again at the same amount is always answered
 * @param x402 selling to x402 clients with scheme {@code exact} beside the channel vouchers
 */
@ConfigurationProperties("chan.gateway")
public record GatewayProperties(
        @DefaultValue("Chan provider") String name,
        @DefaultValue("") String description,
        String providerKey,
        String providerKeyFile,
        String publicUrl,
        String signingUrl,
        @DefaultValue("15m") Duration holdTtl,
        @DefaultValue("false") boolean echoEndpoint,
        List<Model> models,
        List<NamedUpstream> upstreams,
        @DefaultValue("false") boolean wordCountEndpoint,
        @DefaultValue("10m") Duration answerRetention,
        @DefaultValue("4MB") DataSize answerMaxBytes,
        @DefaultValue("1m") Duration unsignedCloseInterval,
        @DefaultValue X402 x402) {

    @ConstructorBinding
    public GatewayProperties {
        models = models == null ? List.of() : List.copyOf(models);
        upstreams = upstreams == null ? List.of() : List.copyOf(upstreams);
    }

    /** A gateway without upstreams, with the other settings' defaults: for tests of its prices. */
    public GatewayProperties(String name, String description, String providerKey,
                             String providerKeyFile, String publicUrl, String signingUrl, Duration holdTtl,
                             boolean echoEndpoint, List<Model> models) {
        this(name, description, providerKey, providerKeyFile, publicUrl, signingUrl, holdTtl, echoEndpoint,
                models, List.of(), false, Duration.ofMinutes(10), DataSize.ofMegabytes(4),
                Duration.ofMinutes(1), X402.DEFAULT);
    }

    /**
     * x402's scheme {@code exact}: each payment is one EIP-3009 transfer the provider's wallet sends
     * and pays the gas of, so it is offered only for models whose every request costs at least
     * {@code minPrice} (decimal USDC) and whose price is known before the call (flat-priced models
     * and services, per-unit services); token-priced models are sold on channels only.
     * {@code tokenName} and {@code tokenVersion} are the USDC token's EIP-712 signing domain, which
     * x402 clients sign their authorizations in; {@code maxTimeoutSeconds} is how long an offer
     * gives the client to pay. {@code enabled: false} offers channels only.
     */
    public record X402(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("0.001") String minPrice,
            @DefaultValue(Eip3009TypedData.USDC_NAME) String tokenName,
            @DefaultValue(Eip3009TypedData.USDC_VERSION) String tokenVersion,
            @DefaultValue("60") long maxTimeoutSeconds) {

        static final X402 DEFAULT = new X402(true, "0.001", Eip3009TypedData.USDC_NAME, Eip3009TypedData.USDC_VERSION,
                60);
    }

    /**
     * A model the gateway sells. {@code pricing}: {@code tokens} (the default) with prices per
     * 1,000 input and output tokens as decimal USDC strings ("0.00375"); {@code flat}, one
     * {@code price} per request; or {@code per-unit}, {@code pricePerUnit} times the integer
     * parameter {@code unitParameter}, which must lie between {@code minUnits} and {@code maxUnits}.
     * {@code upstream} names the one of {@code chan.gateway.upstreams} that serves it.
     * A model of an {@code http} upstream declares its {@code parameters} as a JSON Schema (JSON
     * text), an {@code example} of them (JSON text, checked against the schema at start-up) and a
     * one-line {@code description} for the docs; it may declare what a valid answer is,
     * {@code answerSchema}, a JSON Schema (JSON text, checked at start-up) that the service's
     * answer must match to be charged. {@code created} is the epoch second {@code /v1/models}
     * reports.
     */
    public record Model(String id, String name, String inputPer1kTokens, String outputPer1kTokens, Long created,
                        String upstream, String pricing, String price, String unitParameter, String pricePerUnit,
                        Long minUnits, Long maxUnits, String parameters, String example, String description,
                        String answerSchema) {

        @ConstructorBinding
        public Model {
        }

        /** A token-priced (or, with output price 0, flat-priced) model of no upstream: for tests of its prices. */
        public Model(String id, String name, String inputPer1kTokens, String outputPer1kTokens, Long created) {
            this(id, name, inputPer1kTokens, outputPer1kTokens, created, null, null, null, null, null, null, null,
                    null, null, null, null);
        }
    }

    /**
     * An upstream that serves the models naming it, of one of three kinds. {@code echo}: built in,
     * it answers the last user message; {@code echoStreamDelay} paces its streamed tokens like a
     * real model's, {@code echoAnswerDelay} its whole answers (a request then runs, holding room on
     * its channel, that long: what crash tests and benchmarks need to have requests in flight), and
     * {@code echoAnswerTokens} is the longest answer it gives a request that sets no output limit.
     * {@code openai}: any OpenAI-compatible API at {@code baseUrl}, e.g.
     * {@code https://api.openai.com/v1}, its key in {@code apiKey}; its deadlines, after which the
     * call is aborted and the request settled (a request holds room on its channel, and blocks its
     * close, while it runs), are {@code timeout} for a whole answer, and for a stream
     * {@code streamFirstByteTimeout} until its first event, {@code streamIdleTimeout} the longest
     * silence while the next one is awaited and {@code streamTimeout} for all of it; the longest of
     * them must stay well within {@code holdTtl} (checked at start-up). {@code http}: calls
     * {@code method} {@code url} with the request's parameters: every {@code {name}} in the URL is
     * replaced by that parameter (URL-encoded), and the rest go as the JSON body
     * ({@code params: json-body}, the default for POST, PUT and PATCH), as the query string
     * ({@code query}, the default otherwise) or nowhere ({@code path}). {@code headers} are sent as
     * given; the API key ({@code apiKey}, normally {@code ${SOME_ENVIRONMENT_VARIABLE}}, or the file
     * {@code apiKeyFile}) goes in {@code apiKeyHeader}, as {@code Bearer <key>} when that is
     * {@code Authorization}, else bare. An answer with one of {@code failureStatuses} ("5xx",
     * "404"; default every status outside 2xx), longer than {@code maxAnswerBytes} or later than
     * {@code timeout} is a failure.
     */
    public record NamedUpstream(
            String name,
            @DefaultValue("http") String kind,
            String baseUrl,
            String method,
            String url,
            String params,
            Map<String, String> headers,
            String apiKey,
            String apiKeyFile,
            @DefaultValue("Authorization") String apiKeyHeader,
            @DefaultValue("5s") Duration connectTimeout,
            @DefaultValue("30s") Duration timeout,
            @DefaultValue("1MB") DataSize maxAnswerBytes,
            List<String> failureStatuses,
            @DefaultValue("0ms") Duration echoStreamDelay,
            @DefaultValue(EchoUpstream.DEFAULT_ANSWER_TOKENS) int echoAnswerTokens,
            @DefaultValue("120s") Duration streamFirstByteTimeout,
            @DefaultValue("60s") Duration streamIdleTimeout,
            @DefaultValue("10m") Duration streamTimeout,
            @DefaultValue("0ms") Duration echoAnswerDelay) {

        public NamedUpstream {
            headers = headers == null ? Map.of() : Map.copyOf(headers);
            failureStatuses = failureStatuses == null ? List.of() : List.copyOf(failureStatuses);
        }

        @Override
        public String toString() {
            return "NamedUpstream[name=" + name + ", kind=" + kind + ", method=" + method + ", url=" + url
                    + ", headers=" + headers.keySet() + ", apiKey=" + (blank(apiKey) ? "unset" : "***")
                    + ", apiKeyFile=" + apiKeyFile + ", timeout=" + timeout + "]";
        }
    }

    public static boolean blank(String text) {
        return text == null || text.isBlank();
    }

    @Override
    public String toString() {
        return "GatewayProperties[name=" + name + ", providerKey="
                + (blank(providerKey) ? "unset" : "***") + ", providerKeyFile=" + providerKeyFile + ", models="
                + models + ", upstreams=" + upstreams + "]";
    }
}
