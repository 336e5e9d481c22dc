package io.chanledger.api.marketplace.skills;

import com.fasterxml.jackson.databind.JsonNode;
import io.swagger.v3.oas.annotations.media.Schema;
import org.springframework.lang.Nullable;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The skills answers' shapes, which the OpenAPI document publishes and the pages' types are
 * generated from. The list is built from these records. A skill document is answered as it was
 * published (with its version first), so a publisher's own fields beyond the ones named here
 * pass through; {@link Document} names the fields the validator checks and the service adds, and
 * {@code SkillsEndpointTest} reads a published skill back into it with unknown fields refused, so a
 * field the service starts to answer fails there until it is named here.
 */
final class SkillAnswers {

    private SkillAnswers() {
    }

    @Schema(name = "SkillList")
    record SkillList(int count, List<Summary> skills) {
    }

    @Schema(name = "SkillSummary")
    record Summary(
            String slug,
            int version,
            Instant publishedAt,
            String name,
            @Nullable String description,
            @Schema(description = "the providers' roles, in the document's order") List<String> roles,
            @Schema(description = "how many steps the skill runs") int steps) {
    }

    @Schema(name = "SkillDocument", description = "a published skill: its version first, then the document "
            + "as published (fields beyond these pass through)", additionalPropertiesSchema = Object.class)
    record Document(
            String slug,
            int version,
            Instant publishedAt,
            String name,
            @Nullable String description,
            List<Provider> providers,
            List<Step> steps,
            @Schema(description = "the step whose result the skill returns") String output,
            @Schema(description = "what the agent fills in, by placeholder name") @Nullable Map<String, String> inputs) {
    }

    @Schema(name = "SkillProvider")
    record Provider(
            String role,
            List<String> models,
            @Schema(description = "USDC, as a decimal string", example = "0.50") String deposit,
            @Nullable String category) {
    }

    @Schema(name = "SkillStep")
    record Step(
            String id,
            String role,
            @Schema(description = "the steps that run before this one") List<String> after,
            @Schema(types = "object", description = "the payload sent to its provider; {{step_id}} placeholders are "
                    + "replaced") JsonNode message,
            @Nullable String template) {
    }
}
