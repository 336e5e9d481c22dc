package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.ledger.admin.AdminGuard;
import io.chanledger.api.http.ApiProblem;
import io.chanledger.domain.provider.ApproveProvider;
import io.chanledger.domain.provider.ProviderIds;
import io.chanledger.domain.provider.SuspendProvider;
import io.chanledger.domain.provider.UpdateProviderScore;
import io.chanledger.projections.marketplace.MarketplaceCatalog;
import io.chanledger.projections.marketplace.ProviderView;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.Map;
import java.util.function.Predicate;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.lang.Nullable;

/** The operator's provider decisions: approve (or reinstate), suspend, set the score. Admin credential required. */
@RestController
@RequestMapping(path = "/api/admin/providers/{providerId}", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Marketplace administration")
@SecurityRequirement(name = "admin")
class ProviderAdminController {

    private static final int MAX_SCORE_DECIMALS = 9;

    private final AdminGuard guard;
    private final CommandGateway commands;
    private final ProviderHealthChecker healthChecker;
    private final MarketplaceCatalog catalog;
    private final DirectoryWrites writes;
    private final Clock clock;

    ProviderAdminController(AdminGuard guard, CommandGateway commands, ProviderHealthChecker healthChecker,
                            MarketplaceCatalog catalog, DirectoryWrites writes, Clock clock) {
        this.guard = guard;
        this.commands = commands;
        this.healthChecker = healthChecker;
        this.catalog = catalog;
        this.writes = writes;
        this.clock = clock;
    }

    record Decision(String id, String action, @Nullable String detail) {
    }

    @PostMapping("/approve")
    @Operation(summary = "Approve a pending provider, or reinstate a suspended one",
            description = "The provider is listed and polled from now on; a health check runs at once.")
    @ApiResponse(responseCode = "200", description = "approved (approving twice changes nothing)")
    @ApiResponse(responseCode = "401", description = "no or wrong admin token")
    @ApiResponse(responseCode = "404", description = "no such provider")
    Decision approve(@PathVariable String providerId, HttpServletRequest request, HttpServletResponse response) {
        guard.require(request);
        send(providerId, new ApproveProvider(validId(providerId), clock.instant()));
        healthChecker.checkSoon(providerId);
        awaitDirectory(providerId, view -> view.listed());
        writes.answerWrittenThrough(response, providerId);
        return new Decision(providerId, "approved", null);
    }

    @PostMapping(path = "/suspend")
    @Operation(summary = "Suspend a provider", description = "Body (optional): {\"reason\": \"...\"}. "
            + "The provider leaves every list and is no longer polled until it is approved again.")
    @ApiResponse(responseCode = "200", description = "suspended")
    @ApiResponse(responseCode = "404", description = "no such provider")
    Decision suspend(@PathVariable String providerId,
                     @org.springframework.web.bind.annotation.RequestBody(required = false) JsonNode body,
                     HttpServletRequest request, HttpServletResponse response) {
        guard.require(request);
        String reason = null;
        if (body != null && body.hasNonNull("reason")) {
            if (!body.get("reason").isTextual() || body.get("reason").asText().length() > 500) {
                throw FieldProblem.field("reason", "must be a string of at most 500 characters");
            }
            reason = body.get("reason").asText();
        }
        send(providerId, new SuspendProvider(validId(providerId), reason, clock.instant()));
        awaitDirectory(providerId, view -> view.row().approval().equals("suspended"));
        writes.answerWrittenThrough(response, providerId);
        return new Decision(providerId, "suspended", reason);
    }

    @PutMapping(path = "/score", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Set a provider's incentive score (0 to 1)")
    @RequestBody(content = @io.swagger.v3.oas.annotations.media.Content(
            schema = @Schema(example = "{\"score\": 0.87}")))
    @ApiResponse(responseCode = "200", description = "score set")
    @ApiResponse(responseCode = "400", description = "score missing or outside 0..1")
    Decision score(@Parameter(description = "provider id") @PathVariable String providerId,
                   @org.springframework.web.bind.annotation.RequestBody JsonNode body, HttpServletRequest request,
                   HttpServletResponse response) {
        guard.require(request);
        BigDecimal score = score(body);
        send(providerId, new UpdateProviderScore(validId(providerId), score, clock.instant()));
        awaitDirectory(providerId, view -> view.row().score() != null && view.row().score().compareTo(score) == 0);
        writes.answerWrittenThrough(response, providerId);
        return new Decision(providerId, "score_updated", score.stripTrailingZeros().toPlainString());
    }

    private static BigDecimal score(JsonNode body) {
        JsonNode node = body == null ? null : body.get("score");
        BigDecimal score = JsonDecimals.of(node).orElse(null);
        if (node != null && node.isTextual() && node.asText().matches("[0-9]{1,2}(\\.[0-9]{1,20})?")) {
            score = new BigDecimal(node.asText());
        }
        if (score == null || score.signum() < 0 || score.compareTo(BigDecimal.ONE) > 0
                || score.stripTrailingZeros().scale() > MAX_SCORE_DECIMALS) {
            throw FieldProblem.field("score", "must be a number from 0 to 1 with at most " + MAX_SCORE_DECIMALS
                    + " decimals");
        }
        return score;
    }

    private static String validId(String providerId) {
        if (!ProviderIds.isProviderId(providerId)) {
            throw notFound(providerId);
        }
        return providerId;
    }

    /** Answers once the directory shows the decision (bounded), so the operator reads what they did. */
    private void awaitDirectory(String providerId, Predicate<ProviderView> done) {
        catalog.awaitSnapshot(snapshot -> snapshot.find(providerId).filter(done).isPresent(),
                ProviderRegistration.READ_YOUR_WRITE);
    }

    private void send(String providerId, Object command) {
        try {
            commands.sendAndWait(command);
        } catch (AggregateNotFoundException e) {
            throw notFound(providerId);
        }
    }

    private static ApiProblem notFound(String providerId) {
        return new ApiProblem(HttpStatus.NOT_FOUND, "provider_not_found", "no provider " + providerId,
                Map.of("providerId", providerId));
    }
}
