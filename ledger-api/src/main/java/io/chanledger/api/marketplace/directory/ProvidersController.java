package io.chanledger.api.marketplace.directory;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Agents' discovery endpoint: approved providers with models and pricing, from the precomputed list. */
@RestController
@Tag(name = "Marketplace")
class ProvidersController {

    /** Clients may reuse a list only after asking whether it changed (cheap: 304 on a matching ETag). */
    static final CacheControl REVALIDATE = CacheControl.noCache();

    private final ProviderResponses responses;
    private final ResponseBodies bodies;

    ProvidersController(ProviderResponses responses, ResponseBodies bodies) {
        this.responses = responses;
        this.bodies = bodies;
    }

    @GetMapping(path = "/api/mcp/providers", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Approved providers with their models and pricing",
            description = "Online providers by default; online=false adds offline ones. Ordered by score, then name. "
                    + "Answers 304 when If-None-Match names the current ETag.")
    @ApiResponse(responseCode = "200", content = @Content(mediaType = "application/json",
            schema = @Schema(implementation = ProvidersResponse.class)))
    @ApiResponse(responseCode = "304", description = "not modified since the ETag given")
    @ApiResponse(responseCode = "400", description = "a parameter is invalid; the problem names it and its allowed values",
            content = @Content(mediaType = "application/problem+json"))
    ResponseEntity<byte[]> providers(
            @Parameter(description = "main or additional category", schema = @Schema(allowableValues = {
                    "llm", "image", "audio", "video", "code", "multi-modal", "scraping", "search", "data",
                    "scheduling", "network", "forecasting", "other"}))
            @RequestParam(required = false) String category,
            @Parameter(description = "partial, case-insensitive match on a model's name or id")
            @RequestParam(required = false) String model,
            @Parameter(schema = @Schema(allowableValues = {"bittensor", "community"}))
            @RequestParam(required = false) String tier,
            @Parameter(description = "minimum incentive score", schema = @Schema(type = "number", minimum = "0", maximum = "1"))
            @RequestParam(required = false) String minScore,
            @Parameter(description = "maximum number of results",
                    schema = @Schema(type = "integer", minimum = "1", maximum = "200", defaultValue = "200"))
            @RequestParam(required = false) String limit,
            @Parameter(description = "false includes offline providers",
                    schema = @Schema(type = "boolean", defaultValue = "true"))
            @RequestParam(required = false) String online,
            @Parameter(description = "compact keeps what an agent needs to choose and pay, at the same paths",
                    schema = @Schema(allowableValues = {"full", "compact"}, defaultValue = "full"))
            @RequestParam(required = false) String format,
            @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch,
            HttpServletRequest request, HttpServletResponse response) {
        ProviderQuery query = ProviderQuery.parse(category, model, tier, minScore, limit, online, format);
        return bodies.respond(request, response, responses.providers(query), ifNoneMatch, REVALIDATE);
    }
}
