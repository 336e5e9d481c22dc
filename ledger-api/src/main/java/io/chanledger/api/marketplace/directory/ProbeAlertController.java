package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.http.ApiProblem;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/validator/probe-alert}: validators report a provider they could not reach, and a
 * provider asks to be checked again (see {@link ProbeAlerts}).
 */
@RestController
@Tag(name = "Marketplace")
class ProbeAlertController {

    private final ProbeAlerts alerts;
    private final ClientLimits limits;
    private final ReportMetrics metrics;
    private final ReportBodies bodies;

    ProbeAlertController(ProbeAlerts alerts, ClientLimits limits, ReportMetrics metrics, ObjectMapper mapper) {
        this.alerts = alerts;
        this.limits = limits;
        this.metrics = metrics;
        this.bodies = new ReportBodies(mapper);
    }

    @PostMapping(path = "/api/validator/probe-alert", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Report a provider the validators could not reach",
            description = "A signal, not a verdict: the service checks the provider at once with its own health "
                    + "check (at most once per cooldown per provider) and records what it finds. A provider that "
                    + "answers stays listed. With reachable true and the provider's own {apiUrl}/v1/pricing, it is "
                    + "the provider's request to be checked again (after a restart): the check publishes its "
                    + "models and prices as they are now.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = "application/json", examples = @ExampleObject(
                    "{\"providerId\":\"prov-3f2a9c4b1e7d6a5c8b9e0f1a\",\"probeUrl\":\"https://llm.acme.example/v1/models\","
                            + "\"reachable\":false}"))))
    @ApiResponse(responseCode = "202", description = "taken: {providerId, probed, reachable (when probed), detail}")
    @ApiResponse(responseCode = "400", description = "malformed_body, or invalid_field naming the member at fault",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "404", description = "provider_not_found: no listed provider of that id (for a "
            + "request to be checked again: no listed or pending one)",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "429", description = "rate_limited, with Retry-After",
            content = @Content(mediaType = "application/problem+json"))
    ResponseEntity<ProbeAlerts.Outcome> alert(@RequestBody(required = false) byte[] body, HttpServletRequest request) {
        try {
            limits.admitProbeAlert(request);
            return ResponseEntity.status(HttpStatus.ACCEPTED).body(alerts.handle(bodies.object(body, ProbeAlerts.SHAPE)));
        } catch (ApiProblem problem) {
            metrics.refused("probe-alert", problem.code());
            throw problem;
        }
    }
}
