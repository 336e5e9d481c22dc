package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.config.ProtocolProperties;
import io.chanledger.domain.eip712.Hex;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * The agent discovery document and the guides for agents ({@code /llms.txt}, {@code /skill.md}),
 * all fixed by configuration and serialized once. The signing information they point to is served
 * by both roles ({@code io.chanledger.api.ledger.signing}).
 */
@RestController
@Tag(name = "Marketplace")
class DiscoveryController {

    static final String DOCS_PATH = "/swagger-ui/index.html";
    static final String OPENAPI_PATH = "/v3/api-docs";
    static final String LLMS_TXT_PATH = "/llms.txt";
    static final String SKILL_PATH = "/skill.md";
    private static final CacheControl ONE_HOUR = CacheControl.maxAge(Duration.ofHours(1)).cachePublic();
    private static final MediaType TEXT_UTF8 = new MediaType(MediaType.TEXT_PLAIN, StandardCharsets.UTF_8);
    private static final MediaType MARKDOWN_UTF8 = new MediaType(MediaType.TEXT_MARKDOWN, StandardCharsets.UTF_8);

    private final Rendered agent;
    private final Rendered llmsTxt;
    private final Rendered skill;

    DiscoveryController(MarketplaceProperties properties, ChainProperties chain, ProtocolProperties protocol,
                        ObjectMapper mapper) {
        String contract = Hex.toChecksumAddress(chain.channelContract());
        String providersUrl = properties.url("/api/mcp/providers");
        this.agent = Rendered.of(mapper, new AgentInfo(properties.agent().name(), properties.agent().purpose(),
                "GET " + providersUrl + " to find a provider; approve USDC for " + contract + " once, open a channel "
                        + "to the provider's providerAddress, then send requests with an X-CHAN-Voucher header signed "
                        + "as " + properties.url("/api/chan/signing") + " describes.",
                new AgentInfo.Endpoints(providersUrl, properties.url(DOCS_PATH), properties.url(OPENAPI_PATH),
                        properties.url(LLMS_TXT_PATH), properties.url(SKILL_PATH)),
                contract, properties.agent().sdk()));
        AgentGuides guides = new AgentGuides(properties, chain, protocol);
        this.llmsTxt = Rendered.text(guides.llmsTxt());
        this.skill = Rendered.text(guides.skillMd());
    }

    @GetMapping(path = "/api/agent", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "What this marketplace is and where an agent starts")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = AgentInfo.class)))
    ResponseEntity<byte[]> agent(@RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch) {
        return agent.respond(ifNoneMatch, ONE_HOUR);
    }

    // no produces: whatever an agent's fetch tool accepts, it gets the text
    @GetMapping(path = LLMS_TXT_PATH)
    @Operation(summary = "Quick reference for agents (llms.txt): the service, the five steps, the endpoints, the "
            + "signing domain")
    @ApiResponse(responseCode = "200", content = @Content(mediaType = "text/plain"))
    ResponseEntity<byte[]> llmsTxt(@RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch) {
        return llmsTxt.respond(ifNoneMatch, ONE_HOUR, TEXT_UTF8);
    }

    @GetMapping(path = SKILL_PATH)
    @Operation(summary = "The agent guide as a skill: discovery, the 402 flow, opening a channel, signing vouchers "
            + "with the budget rule, closing, errors")
    @ApiResponse(responseCode = "200", content = @Content(mediaType = "text/markdown"))
    ResponseEntity<byte[]> skill(@RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch) {
        return skill.respond(ifNoneMatch, ONE_HOUR, MARKDOWN_UTF8);
    }
}
