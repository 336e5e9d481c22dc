package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.http.ApiProblem;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/feedback}: an agent's report on a provider after a session, verified when signed
 * by a wallet with a channel with the provider (see {@link ProviderFeedback}).
 */
@RestController
@Tag(name = "Marketplace")
class FeedbackController {

    private final ProviderFeedback feedback;
    private final ClientLimits limits;
    private final ReportSources sources;
    private final ReportMetrics metrics;
    private final ReportBodies bodies;

    FeedbackController(ProviderFeedback feedback, ClientLimits limits, ReportSources sources, ReportMetrics metrics,
                       ObjectMapper mapper) {
        this.feedback = feedback;
        this.limits = limits;
        this.sources = sources;
        this.metrics = metrics;
        this.bodies = new ReportBodies(mapper);
    }

    @PostMapping(path = "/api/feedback", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Report how a session with a provider went",
            description = "Counted per provider over the feedback window and shown in the directory. Signed by a "
                    + "wallet (X-CHAN-Auth-*) that has a channel with the provider, the report is verified and counts "
                    + "in the provider's quality score, each wallet once; unsigned, it is shown apart as unverified "
                    + "and counts in no score, and nothing about the sender is kept. Refusals are problem+json "
                    + "whose error member says what to fix.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = "application/json", examples = @ExampleObject(
                    "{\"providerId\":\"prov-3f2a9c4b1e7d6a5c8b9e0f1a\",\"outcome\":\"failure\",\"reason\":\"timeout\","
                            + "\"protocol\":\"chan\"}"))))
    @ApiResponse(responseCode = "202", description = "recorded (false: over its wallet's or network's share), "
            + "verified")
    @ApiResponse(responseCode = "400", description = "malformed_body, or invalid_field naming the member at fault",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "401", description = "wallet_auth_*: a wallet signature was sent and is not valid",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "404", description = "provider_not_found",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "429", description = "rate_limited, with Retry-After",
            content = @Content(mediaType = "application/problem+json"))
    ResponseEntity<Map<String, Object>> report(@RequestBody(required = false) byte[] body, HttpServletRequest request) {
        try {
            limits.admitFeedback(request);
            ReportSources.Sender sender = sources.senderOf(request, body == null ? new byte[0] : body);
            ProviderFeedback.Report report = feedback.parse(bodies.object(body, ProviderFeedback.SHAPE));
            ProviderFeedback.Recorded recorded = feedback.record(report, sender);
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("recorded", recorded.recorded());
            answer.put("verified", recorded.verified());
            answer.put("providerId", report.providerId());
            answer.put("outcome", report.outcome());
            if (report.reason() != null) {
                answer.put("reason", report.reason());
            }
            return ResponseEntity.status(HttpStatus.ACCEPTED).body(answer);
        } catch (ApiProblem problem) {
            metrics.refused("feedback", problem.code());
            throw problem;
        }
    }
}
