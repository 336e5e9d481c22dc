package io.chanledger.api.marketplace;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.web.ApiProblem;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/telemetry}: anonymous usage events, counted in metrics and otherwise dropped.
 * The body is read only up to {@code telemetry.max-body-bytes}; whatever is wrong with a post is a
 * 4xx, since a client sends these on the side and must never see a server failure for them.
 */
@RestController
@Tag(name = "Marketplace")
class TelemetryController {

    private final ClientLimits limits;
    private final ReportMetrics metrics;
    private final ReportBodies bodies;
    private final MarketplaceProperties.Telemetry settings;

    TelemetryController(ClientLimits limits, ReportMetrics metrics, ObjectMapper mapper,
                        MarketplaceProperties properties) {
        this.limits = limits;
        this.metrics = metrics;
        this.bodies = new ReportBodies(mapper);
        this.settings = properties.telemetry();
    }

    @PostMapping(path = "/api/telemetry", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Send anonymous usage events",
            description = "One event object, an array of them, or {\"events\": [...]}; each counted under its event, "
                    + "type or name member. Nothing of the body is stored.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = "application/json", examples = @ExampleObject("{\"event\":\"provider_selected\"}"))))
    @ApiResponse(responseCode = "202", description = "counted")
    @ApiResponse(responseCode = "400", description = "malformed_body or invalid_telemetry",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "413", description = "body_too_large",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "429", description = "rate_limited, with Retry-After",
            content = @Content(mediaType = "application/problem+json"))
    ResponseEntity<Map<String, Object>> events(HttpServletRequest request) {
        try {
            limits.admitTelemetry(request);
            List<String> names = ClientTelemetry.eventNames(bodies.json(read(request), ClientTelemetry.SHAPE),
                    settings.maxEvents());
            names.forEach(metrics::telemetryEvent);
            return ResponseEntity.status(HttpStatus.ACCEPTED).body(Map.of("accepted", names.size()));
        } catch (ApiProblem problem) {
            metrics.refused("telemetry", problem.code());
            throw problem;
        }
    }

    private byte[] read(HttpServletRequest request) {
        int max = settings.maxBodyBytes();
        if (request.getContentLengthLong() > max) {
            throw tooLarge(max);
        }
        byte[] body;
        try (InputStream in = request.getInputStream()) {
            body = in.readNBytes(max + 1);
        } catch (IOException e) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "malformed_body", "the body could not be read in full");
        }
        if (body.length > max) {
            throw tooLarge(max);
        }
        return body;
    }

    private static ApiProblem tooLarge(int max) {
        return new ApiProblem(HttpStatus.PAYLOAD_TOO_LARGE, "body_too_large", "telemetry bodies are at most " + max
                + " bytes");
    }
}
