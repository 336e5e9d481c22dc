package io.chanledger.api.gateway;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The provider gateway: {@code chan.gateway.*}. Off unless {@code enabled}.
 *
 * @param providerKey the provider's private key (hex), normally {@code ${CHAN_GATEWAY_PROVIDER_KEY}};
 *        never logged, never rendered
 * @param providerKeyFile a file holding the key instead, read once at start-up
 * @param publicUrl the gateway's own base URL as agents reach it; taken from each request when unset
 * @param signingUrl the marketplace's {@code /api/chan/signing}; this service's own when unset
 * @param holdTtl how long a request's hold blocks its channel if the request is never settled
 *        (a crash mid-request); longer than any request may take
 * @param echoEndpoint also serve the echo backend, unpaid, at {@code /echo/v1/chat/completions},
 *        as an OpenAI-compatible upstream for local runs and the benchmark
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
        @DefaultValue Watchtower watchtower) {

    public GatewayProperties {
        models = models == null ? List.of() : List.copyOf(models);
    }

    /**
     * A model the gateway sells: prices per 1,000 input and output tokens as decimal USDC strings
     * ("0.00375"); {@code created} is the epoch second {@code /v1/models} reports.
     */
    public record Model(String id, String name, String inputPer1kTokens, String outputPer1kTokens, Long created) {
    }

    /**
     * Where requests are served: {@code kind} {@code echo} (built in) or {@code openai} (any
     * OpenAI-compatible API at {@code baseUrl}, e.g. {@code https://api.openai.com/v1}, with
     * {@code apiKey} from {@code ${CHAN_GATEWAY_UPSTREAM_API_KEY}}). {@code echoStreamDelay}
     * paces the echo backend's streamed tokens like a real model's; {@code echoAnswerTokens} is the
     * longest answer it gives a request that sets no output limit.
     */
    public record Upstream(
            @DefaultValue("echo") String kind,
            String baseUrl,
            String apiKey,
            @DefaultValue("5s") Duration connectTimeout,
            @DefaultValue("120s") Duration timeout,
            @DefaultValue("0ms") Duration echoStreamDelay,
            @DefaultValue("256") int echoAnswerTokens) {

        @Override
        public String toString() {
            return "Upstream[kind=" + kind + ", baseUrl=" + baseUrl + ", apiKey=" + (blank(apiKey) ? "unset" : "***")
                    + ", timeout=" + timeout + "]";
        }
    }

    /**
     * Claiming on-chain. A channel is claimed when what it earned and is unclaimed reaches
     * {@code claimThreshold} (decimal USDC), and always once its expiry is {@code expiryMargin}
     * away on the chain's clock. Transient failures are retried after {@code initialBackoff},
     * doubling up to {@code maxBackoff}; a claim that keeps failing for other reasons stops after
     * {@code maxAttempts}. {@code rpcUrl} overrides {@code chan.chain.rpc-url} for claims. Fees and the
     * JSON-RPC client's timeout and attempts are the shared {@code chan.chain.fees} and
     * {@code chan.chain.rpc}.
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
            String rpcUrl) {
    }

    static boolean blank(String text) {
        return text == null || text.isBlank();
    }

    @Override
    public String toString() {
        return "GatewayProperties[enabled=" + enabled + ", name=" + name + ", providerKey="
                + (blank(providerKey) ? "unset" : "***") + ", providerKeyFile=" + providerKeyFile + ", models="
                + models + ", upstream=" + upstream + ", watchtower=" + watchtower + "]";
    }
}
