package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;

/** Body of {@code GET /api/agent} (docs/protocol.md §2.6). */
@Schema(name = "AgentInfo")
record AgentInfo(
        String name,
        String purpose,
        @JsonProperty("quick_start") @Schema(name = "quick_start", description = "first step for agents") String quickStart,
        Endpoints endpoints,
        @Schema(description = "channel contract address") String contract,
        String sdk) {

    @Schema(name = "AgentEndpoints")
    record Endpoints(
            @Schema(description = "provider discovery (GET /api/mcp/providers)") String providers,
            @Schema(description = "human-readable API documentation") String docs,
            @Schema(description = "OpenAPI 3 document") String openapi,
            @Schema(description = "short plain-text quick reference for agents (llms.txt convention)") String llmsTxt,
            @Schema(description = "the full agent guide in Markdown, as a skill") String skill) {
    }
}
