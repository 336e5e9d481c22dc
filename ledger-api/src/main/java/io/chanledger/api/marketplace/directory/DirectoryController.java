package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.http.ApiProblem;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.net.URI;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The provider directory: every registered provider, and registration. */
@RestController
@RequestMapping(path = "/api/directory/providers", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Provider directory")
class DirectoryController {

    private static final String REGISTRATION_EXAMPLE = """
            {"name": "Acme LLM", "description": "Chat models, billed per token", "apiUrl": "https://llm.acme.example",
             "providerAddress": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "category": "llm",
             "additionalCategories": ["code"], "tier": "community", "contact": "ops@acme.example",
             "docsUrl": "https://llm.acme.example/v1/docs", "nonce": "k3v9q2m8x1",
             "issuedAt": "2026-11-21T10:00:00Z", "signature": "0x..."}""";

    static final String READ_AFTER_DESCRIPTION = "the X-CHAN-Written-Through of a command: the answer waits "
            + "(up to 2 s) until the directory includes its write, else answers with X-CHAN-Read-Behind: true";

    private final ProviderResponses responses;
    private final ProviderRegistration registration;
    private final ResponseBodies bodies;
    private final ObjectMapper mapper;
    private final DirectoryWrites writes;
    private final ClientLimits limits;

    DirectoryController(ProviderResponses responses, ProviderRegistration registration, ResponseBodies bodies,
                        ObjectMapper mapper, DirectoryWrites writes, ClientLimits limits) {
        this.responses = responses;
        this.registration = registration;
        this.bodies = bodies;
        this.mapper = mapper;
        this.writes = writes;
        this.limits = limits;
    }

    @GetMapping
    @Operation(summary = "The full directory: listed, pending and suspended providers, online or not",
            description = "With registration details, approval, the last health check and the latest status history.")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = DirectoryResponse.class)))
    @ApiResponse(responseCode = "304", description = "not modified since the ETag given")
    @ApiResponse(responseCode = "400", description = "X-CHAN-Read-After is not a global index of this store",
            content = @Content(mediaType = "application/problem+json"))
    ResponseEntity<byte[]> directory(@RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch,
                                     @Parameter(description = READ_AFTER_DESCRIPTION)
                                     @RequestHeader(name = DirectoryWrites.READ_AFTER, required = false) String readAfter,
                                     HttpServletRequest request, HttpServletResponse response) {
        writes.awaitReadAfter(readAfter, response);
        return bodies.respond(request, response, responses.directory(), ifNoneMatch, ProvidersController.REVALIDATE);
    }

    @GetMapping("/{providerId}")
    @Operation(summary = "One provider of the directory")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = DirectoryResponse.Entry.class)))
    @ApiResponse(responseCode = "304", description = "not modified since the ETag given")
    @ApiResponse(responseCode = "404", description = "no such provider")
    @ApiResponse(responseCode = "400", description = "X-CHAN-Read-After is not a global index of this store",
            content = @Content(mediaType = "application/problem+json"))
    ResponseEntity<byte[]> provider(@PathVariable String providerId,
                                    @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch,
                                    @Parameter(description = READ_AFTER_DESCRIPTION)
                                    @RequestHeader(name = DirectoryWrites.READ_AFTER, required = false) String readAfter,
                                    HttpServletResponse response) {
        writes.awaitReadAfter(readAfter, response);
        DirectoryResponse.Entry entry = responses.directoryEntry(providerId).orElseThrow(() -> new ApiProblem(
                HttpStatus.NOT_FOUND, "provider_not_found", "no provider " + providerId, Map.of("providerId", providerId)));
        return Rendered.of(mapper, entry).respond(ifNoneMatch, ProvidersController.REVALIDATE);
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Register a provider",
            description = "Signed by the provider's wallet: EIP-191 personal_sign over the text\n\n"
                    + "    Chan provider registration\n    address: {providerAddress}\n    apiUrl: {apiUrl}\n"
                    + "    chainId: {chainId}\n    nonce: {nonce}\n    issuedAt: {issuedAt}\n\n"
                    + "(LF line ends, none after the last line; values exactly as sent). issuedAt must lie within the "
                    + "last 10 minutes, a nonce is taken once. The service then calls GET {apiUrl}/v1/pricing, which "
                    + "must answer within 10 s with models and provider equal to providerAddress, and GET "
                    + "{apiUrl}/v1/docs, which must explain the provider's use in at least 100 characters "
                    + "(else the problem's check member says docs_missing). An apiUrl this service may not call "
                    + "(a special-purpose or private address, this machine's own) fails the test as unreachable, as "
                    + "a host that refuses the connection does. Community providers wait for approval; bittensor "
                    + "miners are listed at once, unless an earlier provider has the same name. Each client address "
                    + "may register a few times a minute.")
    @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(mediaType = "application/json",
            examples = @ExampleObject(value = REGISTRATION_EXAMPLE)))
    @ApiResponse(responseCode = "201", description = "registered",
            content = @Content(schema = @Schema(implementation = ProviderRegistration.Outcome.class)))
    @ApiResponse(responseCode = "400", description = "a field is missing or malformed, or the signature is wrong; "
            + "the problem's field member names it", content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "409", description = "the address is already registered, or the nonce was used",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "422", description = "the connection test failed",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "429", description = "rate_limited, with Retry-After",
            content = @Content(mediaType = "application/problem+json"))
    ResponseEntity<ProviderRegistration.Outcome> register(@RequestBody JsonNode body, HttpServletRequest request,
                                                          HttpServletResponse response) {
        // before anything else: each registration makes this service call the URL it names
        limits.admitRegistration(request);
        ProviderRegistration.Outcome outcome = registration.register(RegistrationRequestParser.parse(body));
        writes.answerWrittenThrough(response, outcome.id());
        return ResponseEntity.created(URI.create(outcome.directoryUrl())).body(outcome);
    }
}
