package io.chanledger.api.ledger.admin;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthComponent;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.lang.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The health of the parts an operator watches, with their details (listener lag and checkpoint,
 * faucet balance, a provider's listing at its marketplace), which {@code /actuator/health} keeps
 * to itself for anonymous callers. For the operator console and a provider's operator, so both
 * roles serve it; admin token required.
 */
@RestController
@Tag(name = "Web pages")
class OperatorHealthController {

    private static final String[] PARTS = {"chainListener", "gasStation", "marketplaceListing"};

    private final HealthEndpoint health;
    private final AdminGuard guard;

    OperatorHealthController(HealthEndpoint health, AdminGuard guard) {
        this.health = health;
        this.guard = guard;
    }

    @Schema(name = "OperatorHealth")
    record OperatorHealth(@Schema(example = "UP") String status,
                          @Schema(description = "chainListener, gasStation and a provider's marketplaceListing; a "
                                  + "part this instance does not run is left out") Map<String, Part> components) {
    }

    @Schema(name = "OperatorHealthPart")
    record Part(@Schema(example = "UP") String status,
                @Schema(description = "the listener's lag and checkpoint, the faucet's balance, the listing's "
                        + "outcome") @Nullable
                Map<String, Object> details) {
    }

    @GetMapping(path = "/api/admin/health", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Chain listener, gas station and marketplace listing health with details (admin)")
    @SecurityRequirement(name = "admin")
    ResponseEntity<OperatorHealth> health(HttpServletRequest request) {
        guard.require(request);
        Map<String, Part> components = new LinkedHashMap<>();
        for (String part : PARTS) {
            HealthComponent component = health.healthForPath(part);
            if (component != null) {
                components.put(part, new Part(component.getStatus().getCode(),
                        component instanceof Health single && !single.getDetails().isEmpty() ? single.getDetails() : null));
            }
        }
        return ResponseEntity.ok().cacheControl(CacheControl.noStore())
                .body(new OperatorHealth(health.health().getStatus().getCode(), components));
    }
}
