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
 * The provider gateway: {@code chan.gateway.*}. Off unless {@code enabled}.
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
 * @param upstreams named upstreams a model may be routed to ({@link Model#upstream()}); a model
 *        that names none is served by {@code upstream}
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
        @DefaultValue("false") boolean enabled,
        @DefaultValue("Chan provider") String name,
        @DefaultValue("") String description,
        String providerKey,
        String providerKeyFile,
        String publicUrl,
        String signingUrl,
        @DefaultValue("15m") Duration holdTtl,
        @DefaultValue("false") boolean echoEndpoint,
        List<Model> models,
        @DefaultValue Upstream upstream,
        @DefaultValue Watchtower watchtower,
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

    /** A gateway with the default upstream only. */
    public GatewayProperties(boolean enabled, String name, String description, String providerKey,
                             String providerKeyFile, String publicUrl, String signingUrl, Duration holdTtl,
                             boolean echoEndpoint, List<Model> models, Upstream upstream, Watchtower watchtower) {
        this(enabled, name, description, providerKey, providerKeyFile, publicUrl, signingUrl, holdTtl, echoEndpoint,
                models, upstream, watchtower, List.of(), false, Duration.ofMinutes(10), DataSize.ofMegabytes(4),
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
     * {@code upstream} names one of {@code chan.gateway.upstreams} (none: the default upstream).
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

        /** A token-priced (or, with output price 0, flat-priced) model of the default upstream. */
        public Model(String id, String name, String inputPer1kTokens, String outputPer1kTokens, Long created) {
            this(id, name, inputPer1kTokens, outputPer1kTokens, created, null, null, null, null, null, null, null,
                    null, null, null, null);
        }
    }

    /**
     * An upstream a model names. {@code kind} {@code echo} and {@code openai} take the settings of
     * {@link Upstream}; {@code http} calls {@code method} {@code url} with the request's
     * parameters: every {@code {name}} in the URL is replaced by that parameter (URL-encoded),
     * and the rest go as the JSON body ({@code params: json-body}, the default for POST, PUT and
     * PATCH), as the query string ({@code query}, the default otherwise) or nowhere
     * ({@code path}). {@code headers} are sent as given; the API key ({@code apiKey}, normally
     * {@code ${SOME_ENVIRONMENT_VARIABLE}}, or the file {@code apiKeyFile}) goes in
     * {@code apiKeyHeader}, as {@code Bearer <key>} when that is {@code Authorization}, else bare.
     * An answer with one of {@code failureStatuses} ("5xx", "404"; default every status outside
     * 2xx), longer than {@code maxAnswerBytes} or later than {@code timeout} is a failure. An
     * {@code openai} upstream's deadlines are those of {@link Upstream}; their defaults apply to
     * a named one too, except {@code timeout}, whose default here is the http kind's 30 s.
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
            @DefaultValue("256") int echoAnswerTokens,
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

    /**
     * Where requests are served: {@code kind} {@code echo} (built in) or {@code openai} (any
     * OpenAI-compatible API at {@code baseUrl}, e.g. {@code https://api.openai.com/v1}, with
     * {@code apiKey} from {@code ${CHAN_GATEWAY_UPSTREAM_API_KEY}}). {@code echoStreamDelay}
     * paces the echo backend's streamed tokens like a real model's, {@code echoAnswerDelay} its whole
     * answers (a request then runs, holding room on its channel, that long: what crash tests and
     * benchmarks need to have requests in flight); {@code echoAnswerTokens} is the longest answer it
     * gives a request that sets no output limit.
     *
     * <p>Deadlines of an {@code openai} upstream, after which the call is aborted and the request
     * settled (a request holds room on its channel, and blocks its close, while it runs):
     * {@code timeout} for a whole answer, headers and body; for a stream,
     * {@code streamFirstByteTimeout} until its first event, {@code streamIdleTimeout} the longest
     * silence while the next one is awaited, and {@code streamTimeout} for all of it. The longest
     * of them must stay well within {@code holdTtl} (checked at start-up), so that no hold lapses
     * while its request still runs.
     */
    public record Upstream(
            @DefaultValue("echo") String kind,
            String baseUrl,
            String apiKey,
            @DefaultValue("5s") Duration connectTimeout,
            @DefaultValue("120s") Duration timeout,
            @DefaultValue("0ms") Duration echoStreamDelay,
            @DefaultValue("256") int echoAnswerTokens,
            @DefaultValue("120s") Duration streamFirstByteTimeout,
            @DefaultValue("60s") Duration streamIdleTimeout,
            @DefaultValue("10m") Duration streamTimeout,
            @DefaultValue("0ms") Duration echoAnswerDelay) {

        @Override
        public String toString() {
            return "Upstream[kind=" + kind + ", baseUrl=" + baseUrl + ", apiKey=" + (blank(apiKey) ? "unset" : "***")
                    + ", timeout=" + timeout + ", streamFirstByteTimeout=" + streamFirstByteTimeout
                    + ", streamIdleTimeout=" + streamIdleTimeout + ", streamTimeout=" + streamTimeout + "]";
        }
    }

    /**
     * Claiming on-chain. A channel is claimed when what it earned and is unclaimed reaches
     * {@code claimThreshold} (decimal USDC), and always once its expiry is its margin away on the
     * chain's clock: {@code expiryMarginPercent} of the channel's life (expiry less the time of
     * its open block), but never less than {@code expiryMarginMin} (which must cover a round, the
     * chain's confirmation and a retry: keep it at least twice {@code interval}) and never more
     * than {@code expiryMargin}. So a short channel is claimed near its end only, and one its
     * consumer closes cooperatively before costs no claim. Transient failures are retried after {@code initialBackoff},
     * doubling up to {@code maxBackoff}; a claim that keeps failing for other reasons stops after
     * {@code maxAttempts}. {@code rpcUrl} overrides {@code chan.chain.rpc-url} for claims. Fees and the
     * JSON-RPC client's timeout and attempts are the shared {@code chan.chain.fees} and
     * {@code chan.chain.rpc}. What the chain paid above a channel's charged total (an expiry claim
     * can only use a voucher the consumer signed) is given back to the consumer once the channel
     * has ended, when it is more than {@code minReturn} (decimal USDC; 0: always).
     */
    public record Watchtower(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("30s") Duration interval,
            @DefaultValue("5") String claimThreshold,
            @DefaultValue("1h") Duration expiryMargin,
            @DefaultValue("5s") Duration initialBackoff,
            @DefaultValue("5m") Duration maxBackoff,
            @DefaultValue("6") int maxAttempts,
            @DefaultValue("2m") Duration receiptTimeout,
            String rpcUrl,
            @DefaultValue("0") String minReturn,
            @DefaultValue("10") int expiryMarginPercent,
            @DefaultValue("60s") Duration expiryMarginMin) {

        @ConstructorBinding
        public Watchtower {
            if (expiryMarginPercent < 0 || expiryMarginPercent > 100) {
                throw new IllegalArgumentException("chan.gateway.watchtower.expiry-margin-percent must lie"
                        + " between 0 and 100, not " + expiryMarginPercent);
            }
        }

        /** The settings above with the default share of a channel's life and floor of its margin. */
        public Watchtower(boolean enabled, Duration interval, String claimThreshold, Duration expiryMargin,
                          Duration initialBackoff, Duration maxBackoff, int maxAttempts, Duration receiptTimeout,
                          String rpcUrl, String minReturn) {
            this(enabled, interval, claimThreshold, expiryMargin, initialBackoff, maxBackoff, maxAttempts,
                    receiptTimeout, rpcUrl, minReturn, 10, Duration.ofSeconds(60));
        }
    }

    static boolean blank(String text) {
        return text == null || text.isBlank();
    }

    @Override
    public String toString() {
        return "GatewayProperties[enabled=" + enabled + ", name=" + name + ", providerKey="
                + (blank(providerKey) ? "unset" : "***") + ", providerKeyFile=" + providerKeyFile + ", models="
                + models + ", upstream=" + upstream + ", upstreams=" + upstreams + ", watchtower=" + watchtower + "]";
    }
}
