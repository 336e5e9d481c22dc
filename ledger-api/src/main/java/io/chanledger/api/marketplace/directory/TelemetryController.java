package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.http.ApiProblem;
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
 * {@code POST /api/telemetry}: agent clients' reports of their paid requests, kept per provider,
 * verified when the post is signed by a wallet with a channel with the provider and unverified
 * otherwise (see {@link ProviderTelemetry}), and other usage events, counted in metrics. The
 * signature, when there is one, is judged before the body is read; the body is read only up to
 * {@code telemetry.max-body-bytes}; whatever is wrong with a post is a 4xx, since a client sends
 * these on the side and must never see a server failure for them.
 */
@RestController
@Tag(name = "Marketplace")
class TelemetryController {

    private final ClientLimits limits;
    private final ReportMetrics metrics;
    private final ReportBodies bodies;
    private final ProviderTelemetry telemetry;
    private final ReportSources sources;
    private final MarketplaceProperties.Telemetry settings;
    private final String protocol;

    TelemetryController(ClientLimits limits, ReportMetrics metrics, ObjectMapper mapper, ProviderTelemetry telemetry,
                        ReportSources sources, MarketplaceProperties properties) {
        this.limits = limits;
        this.sources = sources;
        this.metrics = metrics;
        this.bodies = new ReportBodies(mapper);
        this.telemetry = telemetry;
        this.settings = properties.telemetry();
        this.protocol = properties.providerProtocol();
    }

    @PostMapping(path = "/api/telemetry", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Report paid requests and other usage events",
            description = "One event object, an array of them, or {\"events\": [...]}. An event with httpStatus or "
                    + "costUsdc reports a paid request (providerId, latencyMs, httpStatus, costUsdc, protocol, "
                    + "timestamp, agentId; httpStatus 0: no HTTP answer) and feeds the provider's telemetry in "
                    + "the directory. Signed by a wallet (X-CHAN-Auth-*) that has a channel with the provider, it "
                    + "is verified and counts in the provider's quality score, each wallet once; unsigned, it is "
                    + "shown apart as unverified and counts in no score. agentId is never stored. Every event is "
                    + "also counted in metrics under its event, type or name member.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = "application/json", examples = @ExampleObject("{\"providerId\":\"prov-3f2a9c4b1e7d6a5c8b9e0f1a\","
                    + "\"latencyMs\":840,\"httpStatus\":200,\"costUsdc\":\"0.0042\",\"protocol\":\"chan\","
                    + "\"timestamp\":\"2026-11-21T10:00:00Z\",\"agentId\":\"agent-1\"}"))))
    @ApiResponse(responseCode = "202", description = "accepted: the events counted; recorded: the request reports "
            + "counted in the providers' telemetry (the rest were over their wallet's or network's share); verified: "
            + "how many of those were verified")
    @ApiResponse(responseCode = "400", description = "malformed_body, or invalid_telemetry naming the event and field",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "401", description = "wallet_auth_*: a wallet signature was sent and is not valid",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "404", description = "provider_not_found: a report names no provider of the directory",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "413", description = "body_too_large",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "429", description = "rate_limited, with Retry-After",
            content = @Content(mediaType = "application/problem+json"))
    ResponseEntity<Map<String, Object>> events(HttpServletRequest request) {
        try {
            limits.admitTelemetry(request);
            byte[] body = read(request);
            ReportSources.Sender sender = sources.senderOf(request, body);
            List<ClientTelemetry.Event> events = ClientTelemetry.events(bodies.json(body,
                    ClientTelemetry.SHAPE), settings.maxEvents(), protocol, settings.maxCostBaseUnits());
            telemetry.requireKnownProviders(events);
            ProviderTelemetry.Recorded recorded = telemetry.record(events, sender);
            events.forEach(event -> metrics.telemetryEvent(event.name()));
            return ResponseEntity.status(HttpStatus.ACCEPTED).body(Map.of("accepted", events.size(),
                    "recorded", recorded.recorded(), "verified", recorded.verified()));
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
