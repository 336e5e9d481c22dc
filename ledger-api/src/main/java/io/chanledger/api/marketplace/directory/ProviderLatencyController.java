package io.chanledger.api.marketplace.directory;

import io.chanledger.api.http.ApiProblem;
import io.chanledger.projections.marketplace.ProviderHealthStore;
import io.chanledger.projections.marketplace.ProviderHealthStore.LatencySample;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** A provider's health checks of the last day, for the provider page's latency chart. */
@RestController
@Tag(name = "Provider directory")
class ProviderLatencyController {

    /** A day of checks at the default one-minute interval. */
    private static final int MAX_SAMPLES = 1_440;

    record LatencyHistory(String providerId, Instant since, List<LatencySample> samples) {
    }

    private final ProviderHealthStore health;
    private final ProviderResponses responses;
    private final Clock clock = Clock.systemUTC();

    ProviderLatencyController(ProviderHealthStore health, ProviderResponses responses) {
        this.health = health;
        this.responses = responses;
    }

    @GetMapping(path = "/api/directory/providers/{providerId}/latency", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "The provider's health checks of the last 24 hours",
            description = "{providerId, since, samples: [{at, latencyMs, ok}]}, oldest first, at most 1,440; "
                    + "latencyMs is null for a failed check.")
    @ApiResponse(responseCode = "200", description = "the checks")
    @ApiResponse(responseCode = "404", description = "no such provider (provider_not_found)")
    ResponseEntity<LatencyHistory> latency(@PathVariable String providerId) {
        if (responses.directoryEntry(providerId).isEmpty()) {
            throw new ApiProblem(HttpStatus.NOT_FOUND, "provider_not_found", "no provider " + providerId,
                    Map.of("providerId", providerId));
        }
        Instant now = clock.instant();
        return ResponseEntity.ok().cacheControl(CacheControl.noCache())
                .body(new LatencyHistory(providerId, now.minus(ProviderHealthStore.LATENCY_HISTORY),
                        health.latencyHistory(providerId, now, MAX_SAMPLES)));
    }
}
