package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/** Body of {@code GET /api/validator/registry} (docs/protocol.md §2.5). */
@Schema(name = "ValidatorRegistry")
record RegistryResponse(
        @Schema(example = "1.0") String version,
        @Schema(description = "when this registry body was computed") Instant updated,
        @Schema(description = "all approved online miners") List<Miner> miners,
        @Schema(description = "number of miners listed") int count,
        @Schema(description = "number of listed miners that are online") int onlineCount,
        @Schema(description = "netuid of the subnet") int subnet) {

    @Schema(name = "Miner")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record Miner(
            String id,
            String name,
            @Schema(allowableValues = {"bittensor", "community"}) String tier,
            @Schema(description = "main category") String category,
            List<String> additionalCategories,
            String apiUrl,
            @Schema(description = "EIP-55 payment address") String wallet,
            @Schema(nullable = true) String hotkey,
            @Schema(nullable = true) Integer uid,
            @Schema(minimum = "0", maximum = "1") BigDecimal score,
            boolean online,
            @Schema(description = "the provider's model and pricing endpoints answered at the last check") boolean inferenceOnline,
            @Schema(nullable = true) Long latencyMs,
            @Schema(nullable = true) Instant lastChecked,
            @Schema(description = "number of models; no model pricing is included") int modelCount,
            @Schema(description = "payment scheme the miner takes", example = "chan") String protocol,
            @Schema(description = "what validators' miners GET to see that the provider answers: its unpaid "
                    + "model list, since a provider's base URL need not answer a GET") String probeUrl) {
    }
}
