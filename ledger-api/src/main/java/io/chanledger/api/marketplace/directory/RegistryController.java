package io.chanledger.api.marketplace.directory;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/** What validators of the subnet read to find miners to probe. */
@RestController
@Tag(name = "Marketplace")
class RegistryController {

    private final ValidatorRegistry registry;
    private final ResponseBodies bodies;

    RegistryController(ValidatorRegistry registry, ResponseBodies bodies) {
        this.registry = registry;
        this.bodies = bodies;
    }

    @GetMapping(path = "/api/validator/registry", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Approved online miners for validators",
            description = "Computed at most every five minutes (chan.marketplace.registry-cache) and served "
                    + "unchanged meanwhile; Cache-Control max-age says how long the body stays current.")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = RegistryResponse.class)))
    @ApiResponse(responseCode = "304", description = "not modified since the ETag given")
    ResponseEntity<byte[]> registry(@RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch,
                                    HttpServletRequest request, HttpServletResponse response) {
        ValidatorRegistry.Answer answer = registry.current();
        return bodies.respond(request, response, answer.rendered(), ifNoneMatch, answer.cacheControl());
    }
}
