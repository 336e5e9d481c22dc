package io.chanledger.api.marketplace.directory;

import io.chanledger.api.ledger.channels.command.ContractSettingsHistory;
import io.chanledger.domain.contract.ContractSettings;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.provider.ModelPrice;
import io.chanledger.domain.provider.Price;
import io.chanledger.projections.marketplace.ProviderView;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * What agents ask the directory besides the provider list: the contract's fee in force
 * ({@code /api/directory/config}) and each model sold with its sellers, cheapest first
 * ({@code /api/directory/models}). Both are public and read from what the ledger recorded.
 * ({@code /api/directory/pricing}, upstream vendors' reference prices on the deployed marketplace,
 * needs a price source this service does not have, and is left unanswered.)
 */
@RestController
@Tag(name = "Provider directory")
class MarketDirectoryController {

    @Schema(name = "DirectoryConfig")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record Config(
            @Schema(nullable = true, description = "EIP-55 address the contract pays its fee to, as the last "
                    + "recorded FeeUpdated log set it; null before the ledger recorded one") String feeWallet,
            @Schema(description = "the fee in force, basis points of each claim's payout", example = "200")
            long feeBps) {
    }

    @Schema(name = "MarketModels")
    record Models(int count, List<MarketModel> models) {
    }

    @Schema(name = "MarketModel")
    record MarketModel(
            @Schema(description = "model identifier used in API requests") String id,
            @Schema(description = "its sellers, cheapest first") List<Seller> providers) {
    }

    @Schema(name = "MarketModelSeller")
    record Seller(
            String providerId,
            String name,
            String apiUrl,
            String providerAddress,
            boolean online,
            @Schema(nullable = true) @JsonInclude(JsonInclude.Include.ALWAYS) BigDecimal qualityScore,
            @Schema(description = "the model's name at this provider") String modelName,
            ProvidersResponse.Pricing pricing,
            @Schema(description = "the whole price: its kind and its amounts in base units") Price price) {
    }

    private final ContractSettingsHistory contract;
    private final ProviderResponses responses;
    private final ObjectMapper mapper;

    MarketDirectoryController(ContractSettingsHistory contract, ProviderResponses responses, ObjectMapper mapper) {
        this.contract = contract;
        this.responses = responses;
        this.mapper = mapper;
    }

    @GetMapping(path = "/api/directory/config", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "The channel contract's fee recipient and rate in force",
            description = "As the chain listener recorded them from the contract's FeeUpdated logs.")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Config.class)))
    ResponseEntity<Config> config() {
        ContractSettings settings = contract.current();
        String recipient = settings.feeRecipient();
        return ResponseEntity.ok().cacheControl(CacheControl.noCache())
                .body(new Config(recipient == null ? null : Hex.toChecksumAddress(recipient),
                        settings.feeBps().longValueExact()));
    }

    @GetMapping(path = "/api/directory/models", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Every model sold, with the providers that sell it, cheapest first",
            description = "Approved providers; online ones unless online=false. Sellers are ordered by input plus "
                    + "output price per 1,000 tokens (a flat-priced service: its price per request; a per-unit one: "
                    + "its highest), then by name.")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Models.class)))
    @ApiResponse(responseCode = "304", description = "not modified since the ETag given")
    @ApiResponse(responseCode = "400", description = "invalid_parameter",
            content = @Content(mediaType = "application/problem+json"))
    ResponseEntity<byte[]> models(
            @Parameter(description = "partial, case-insensitive match on a model's id or name")
            @RequestParam(required = false) String model,
            @Parameter(description = "false includes offline providers",
                    schema = @Schema(type = "boolean", defaultValue = "true"))
            @RequestParam(required = false) String online,
            @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch) {
        ProviderQuery query = ProviderQuery.parse(null, model, null, null, null, online, null);
        Map<String, List<Offer>> byModel = new TreeMap<>();
        for (ProviderView provider : responses.snapshot().providers()) {
            if (!provider.listed() || query.onlineOnly() && !provider.online()) {
                continue;
            }
            for (ModelPrice price : provider.models()) {
                if (query.model() != null && !ProviderResponses.matches(price, query.model())) {
                    continue;
                }
                byModel.computeIfAbsent(price.id(), k -> new ArrayList<>()).add(new Offer(seller(provider, price),
                        price.inputPer1kTokens().add(price.outputPer1kTokens())));
            }
        }
        List<MarketModel> models = new ArrayList<>();
        byModel.forEach((id, offers) -> models.add(new MarketModel(id, cheapestFirst(offers))));
        return Rendered.of(mapper, new Models(models.size(), models))
                .respond(ifNoneMatch, ProvidersController.REVALIDATE);
    }

    private static Seller seller(ProviderView provider, ModelPrice price) {
        ProvidersResponse.Model model = ProvidersResponse.Model.of(price);
        return new Seller(provider.id(), provider.row().name(), provider.row().apiUrl(),
                Hex.toChecksumAddress(provider.row().address()), provider.online(), provider.qualityScore(),
                price.name(), model.pricing(), model.price());
    }

    /** A seller of a model with what it asks: input + output price per 1,000 tokens, in base units. */
    private record Offer(Seller seller, BigInteger price) {
    }

    /** By price (exact integers), then by provider name and id. */
    private static List<Seller> cheapestFirst(List<Offer> offers) {
        return offers.stream().sorted(Comparator.comparing(Offer::price)
                        .thenComparing(o -> o.seller().name().toLowerCase(Locale.ROOT))
                        .thenComparing(o -> o.seller().providerId()))
                .map(Offer::seller).toList();
    }
}
