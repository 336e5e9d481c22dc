package io.chanledger.api.marketplace.skills;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.ledger.admin.AdminGuard;
import io.chanledger.api.marketplace.directory.Rendered;
import io.chanledger.api.http.ApiProblem;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The skills catalogue: multi-provider workflows as versioned documents. */
@RestController
@RequestMapping(path = "/api/skills", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Skills")
class SkillsController {

    private final SkillCatalog catalog;
    private final AdminGuard guard;
    private final ObjectMapper mapper;

    SkillsController(SkillCatalog catalog, AdminGuard guard, ObjectMapper mapper) {
        this.catalog = catalog;
        this.guard = guard;
        this.mapper = mapper;
    }

    @GetMapping
    @Operation(summary = "Every skill at its current version")
    @ApiResponse(responseCode = "200", description = "the list", content = @Content(
            mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = SkillAnswers.SkillList.class)))
    ResponseEntity<byte[]> list(@RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch) {
        return conditional(catalog.list(), ifNoneMatch);
    }

    @GetMapping("/{slug}")
    @Operation(summary = "One skill document",
            description = "slug, version and publishedAt, then the skill: name, description, providers "
                    + "[{role, models, deposit, category?}] and steps [{id, role, after, message, template?}].")
    @ApiResponse(responseCode = "200", description = "the skill", content = @Content(
            mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = SkillAnswers.Document.class)))
    @ApiResponse(responseCode = "404", description = "no such skill or version")
    ResponseEntity<byte[]> skill(@PathVariable String slug,
                                 @Parameter(description = "an earlier version; the current one by default")
                                 @RequestParam(required = false) Integer version,
                                 @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch) {
        if (!SkillValidator.isSlug(slug) || version != null && version < 1) {
            throw notFound(slug);
        }
        JsonNode skill = catalog.skill(slug, version).orElseThrow(() -> notFound(slug));
        return conditional(skill, ifNoneMatch);
    }

    @PutMapping(path = "/{slug}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Publish a skill (admin)",
            description = "Validated first: every step's after names existing steps, no cycles, every {{step_id}} "
                    + "placeholder names a step it runs after, every role is among the providers, deposits are "
                    + "USDC amounts. A changed document becomes the next version (201); the same content again "
                    + "changes nothing (200).")
    @SecurityRequirement(name = "admin")
    @ApiResponse(responseCode = "201", description = "published as a new version", content = @Content(
            mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = SkillAnswers.Document.class)))
    @ApiResponse(responseCode = "200", description = "identical to the current version", content = @Content(
            mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = SkillAnswers.Document.class)))
    @ApiResponse(responseCode = "400", description = "invalid skill; problems lists every reason")
    ResponseEntity<byte[]> publish(@PathVariable String slug, @RequestBody JsonNode document,
                                   HttpServletRequest request) {
        guard.require(request);
        try {
            SkillStore.Publication publication = catalog.publish(slug, document, "admin");
            JsonNode skill = catalog.skill(slug, publication.skill().version()).orElseThrow();
            return ResponseEntity.status(publication.created() ? HttpStatus.CREATED : HttpStatus.OK)
                    .contentType(MediaType.APPLICATION_JSON)
                    .body(Rendered.of(mapper, skill).body());
        } catch (InvalidSkillException e) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "invalid_skill", e.getMessage(),
                    Map.of("problems", e.problems()));
        }
    }

    private ResponseEntity<byte[]> conditional(Object body, String ifNoneMatch) {
        return Rendered.of(mapper, body).respond(ifNoneMatch, CacheControl.noCache());
    }

    private static ApiProblem notFound(String slug) {
        return new ApiProblem(HttpStatus.NOT_FOUND, "skill_not_found", "no skill " + slug, Map.of("slug", slug));
    }
}
