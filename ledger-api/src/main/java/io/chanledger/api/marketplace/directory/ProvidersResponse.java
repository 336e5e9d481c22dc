package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.chanledger.api.config.ProtocolProperties;
import io.chanledger.domain.money.Usdc;
import io.chanledger.domain.provider.ModelPrice;
import io.chanledger.domain.provider.Price;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.springframework.lang.Nullable;

/**
 * Body of {@code GET /api/mcp/providers} (docs/protocol.md §2.1–2.4). {@code providers} holds {@link Provider}s,
 * or with {@code format=compact} {@link CompactProvider}s: the same paths, only those an agent needs
 * to choose a provider and pay it, so that a long list fits in a model's context.
 */
@Schema(name = "ProvidersResponse")
record ProvidersResponse(
        @Schema(description = "response version label", example = "1.0") String version,
        @Schema(description = "number of providers returned") int count,
        @Schema(description = "when this list was computed") Instant timestamp,
        @ArraySchema(schema = @Schema(oneOf = {Provider.class, CompactProvider.class},
                description = "Provider by default, CompactProvider with format=compact"))
        List<?> providers,
        @JsonProperty("_filters") @Schema(description = "the query parameters and their allowed values")
        Map<String, Object> filters,
        @JsonProperty("_meta") ProtocolMeta meta) {

    @Schema(name = "Provider")
    record Provider(
            @Schema(description = "unique provider id") String id,
            String name,
            String description,
            @Schema(format = "uri", description = "base URL for requests to the provider") String apiUrl,
            @Schema(description = "EIP-55 address the payment channel is opened to") String providerAddress,
            @Schema(description = "one of the categories of spec section 1") String category,
            @Schema(example = "137") long chainId,
            Status status,
            List<Model> models,
            @Schema(description = "payment scheme the provider takes; agent clients keep the providers whose "
                    + "protocol is chan (mpp is another scheme)", example = "chan") String protocol,
            @Schema(format = "uri", description = "the provider's instructions for agents: {apiUrl}/v1/docs, which "
                    + "its health checks verify") String docsUrl,
            @Schema(nullable = true, minimum = "0", maximum = "1", description = "from agents' feedback, their "
                    + "clients' telemetry and the health checks (docs/api.md, Quality score); null while unknown")
            @JsonInclude(JsonInclude.Include.ALWAYS) BigDecimal qualityScore,
            @Schema(format = "uri", description = "the provider's logo, when it gave one") @Nullable String logoUrl,
            @Schema(format = "uri", description = "the provider's website, when it gave one") @Nullable String website,
            @Schema(description = "whether it streams answers (stream: true), when it said") @Nullable
            Boolean supportsStreaming) {
    }

    @Schema(name = "ProviderStatus")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record Status(
            @Schema(description = "shown to agents: its pricing answers and its inference side is up") boolean online,
            @Nullable Instant lastChecked,
            @Nullable Long latencyMs,
            @Schema(description = "its /v1/docs (100 characters or more) and the 402 of its chat endpoint without a "
                    + "voucher answer as agents need them") boolean inferenceOnline) {
    }

    @Schema(name = "Model")
    record Model(@Schema(description = "model identifier used in API requests") String id, @Nullable String name,
                 Pricing pricing,
                 @Schema(description = "the whole price: its kind and its amounts in base units") Price price) {

        static Model of(ModelPrice model) {
            BigInteger perRequest = model.perRequest();
            return new Model(model.id(), model.name(), new Pricing(Usdc.formatDecimalUsdc(model.inputPer1kTokens()),
                    Usdc.formatDecimalUsdc(model.outputPer1kTokens()), "USDC", Usdc.DECIMALS,
                    perRequest == null ? null : Usdc.formatDecimalUsdc(perRequest)), model.price());
        }
    }

    /**
     * The two numbers agent clients deployed before the price kind existed read: per 1,000 tokens
     * for a model priced per token, else its highest price of a request and 0.
     */
    @Schema(name = "Pricing")
    record Pricing(
            @Schema(description = "USDC per 1,000 input tokens, decimal string", example = "0.00375") String inputPer1kTokens,
            @Schema(description = "USDC per 1,000 output tokens, decimal string", example = "0.015") String outputPer1kTokens,
            @Schema(example = "USDC") String currency,
            @Schema(example = "6") int decimals,
            @Schema(description = "for a flat-priced service: the price of one request, decimal USDC; absent for "
                    + "any other (a per-unit service's price is in price)", example = "0.002")
            @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String perRequest) {
    }

    @Schema(name = "CompactProvider", description = "a Provider with only what choosing and paying need")
    record CompactProvider(String id, String name, String category, String apiUrl, String providerAddress,
                           @Schema(example = "chan") String protocol, CompactStatus status, List<CompactModel> models,
                           @Schema(nullable = true, minimum = "0", maximum = "1")
                           @JsonInclude(JsonInclude.Include.ALWAYS) BigDecimal qualityScore) {

        static CompactProvider of(Provider full) {
            return new CompactProvider(full.id(), full.name(), full.category(), full.apiUrl(), full.providerAddress(),
                    full.protocol(), new CompactStatus(full.status().online(), full.status().latencyMs()),
                    full.models().stream().map(m -> new CompactModel(m.id(), new CompactPricing(
                            m.pricing().inputPer1kTokens(), m.pricing().outputPer1kTokens()), m.price())).toList(),
                    full.qualityScore());
        }
    }

    @Schema(name = "CompactProviderStatus")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record CompactStatus(boolean online, @Nullable Long latencyMs) {
    }

    @Schema(name = "CompactModel")
    record CompactModel(String id, CompactPricing pricing, Price price) {
    }

    @Schema(name = "CompactPricing", description = "decimal USDC per 1,000 tokens")
    record CompactPricing(String inputPer1kTokens, String outputPer1kTokens) {
    }

    @Schema(name = "ProtocolMeta")
    record ProtocolMeta(
            @Schema(example = ProtocolProperties.NAME) String protocol,
            @Schema(example = "polygon") String network,
            @Schema(description = "channel contract address") String contract,
            @Schema(format = "uri") String directoryUrl,
            @Schema(format = "uri") String marketplaceUrl) {
    }
}
