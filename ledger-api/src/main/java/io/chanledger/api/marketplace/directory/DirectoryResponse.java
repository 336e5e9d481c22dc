package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Body of {@code GET /api/directory/providers}: every registered provider, listed or not, online
 * or not, with what it registered, where it stands and what happened to it lately.
 */
@Schema(name = "Directory")
record DirectoryResponse(
        @Schema(example = "1.0") String version,
        Instant updated,
        int count,
        List<Entry> providers) {

    @Schema(name = "DirectoryProvider")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record Entry(
            String id,
            String name,
            String description,
            String apiUrl,
            String providerAddress,
            String category,
            List<String> additionalCategories,
            @Schema(allowableValues = {"bittensor", "community"}) String tier,
            @Schema(nullable = true) String hotkey,
            @Schema(nullable = true) Integer uid,
            @Schema(nullable = true) String contact,
            @Schema(nullable = true) String docsUrl,
            long chainId,
            Instant registeredAt,
            Approval approval,
            @Schema(nullable = true, minimum = "0", maximum = "1") BigDecimal score,
            DirectoryStatus status,
            List<ProvidersResponse.Model> models,
            @Schema(description = "latest status history, oldest first") List<History> history,
            @Schema(description = "agents' reports on the provider over the feedback window") Feedback feedback,
            @Schema(description = "agents' clients' reports of paid requests over the telemetry window")
            Telemetry telemetry,
            @Schema(nullable = true, minimum = "0", maximum = "1", description = "from this service's health checks "
                    + "and verified feedback and telemetry (docs/api.md, Quality score); null while unknown")
            BigDecimal qualityScore,
            @Schema(nullable = true, format = "uri") String logoUrl,
            @Schema(nullable = true, format = "uri") String website,
            @Schema(nullable = true) Boolean supportsStreaming,
            @Schema(nullable = true, description = "the id of the provider that registered this name (trimmed, case "
                    + "ignored) first; this one waits for the operator's approval") String duplicateNameOf) {
    }

    @Schema(name = "DirectoryTelemetry", description = "verified reports (signed by wallets with a channel with "
            + "the provider), with the unverified ones apart")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record Telemetry(
            @Schema(description = "the rolling window aggregated, ISO-8601", example = "PT24H") String window,
            long requests,
            @Schema(description = "requests answered with HTTP 400 or above, or not answered") long failures,
            @Schema(nullable = true, minimum = "0", maximum = "1", description = "failures / requests; null without "
                    + "requests") BigDecimal failureRate,
            @Schema(description = "failed requests by HTTP status", example = "{\"502\": 2}")
            Map<String, Long> failuresByStatus,
            @Schema(description = "failed requests that got no HTTP answer") long failuresWithoutStatus,
            @Schema(description = "latency agents observed, milliseconds") Latency latencyMs,
            @Schema(description = "what agents reported paying, USDC base units (6 decimals), decimal string",
                    example = "4200") BigInteger paidVolume,
            @Schema(description = "the wallets that sent these; each counts once in the quality score") long wallets,
            @Schema(description = "anonymous reports, bounded per source network; in no score")
            TelemetryCounts unverified) {
    }

    @Schema(name = "DirectoryTelemetryCounts")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record TelemetryCounts(
            long requests,
            long failures,
            @Schema(nullable = true, minimum = "0", maximum = "1") BigDecimal failureRate,
            Map<String, Long> failuresByStatus,
            long failuresWithoutStatus,
            Latency latencyMs,
            BigInteger paidVolume) {
    }

    @Schema(name = "DirectoryTelemetryLatency")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record Latency(@Schema(nullable = true) Long p50, @Schema(nullable = true) Long p95) {
    }

    @Schema(name = "DirectoryFeedback", description = "verified reports (signed by wallets with a channel with the "
            + "provider), with the unverified ones apart")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record Feedback(
            @Schema(description = "the rolling window counted, ISO-8601", example = "PT168H") String window,
            long reports,
            long successes,
            long failures,
            @Schema(nullable = true, minimum = "0", maximum = "1", description = "successes / reports; null without "
                    + "reports") BigDecimal successRate,
            @Schema(description = "failures by the reason given (quality, timeout, error, format, unavailable)")
            Map<String, Long> failureReasons,
            @Schema(description = "the wallets that sent these; each counts once in the quality score") long wallets,
            @Schema(description = "anonymous reports, bounded per source network; in no score")
            FeedbackCounts unverified) {
    }

    @Schema(name = "DirectoryFeedbackCounts")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record FeedbackCounts(
            long reports,
            long successes,
            long failures,
            @Schema(nullable = true, minimum = "0", maximum = "1") BigDecimal successRate,
            Map<String, Long> failureReasons) {
    }

    @Schema(name = "DirectoryApproval")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record Approval(
            @Schema(allowableValues = {"pending", "approved", "suspended"}) String state,
            @Schema(nullable = true) Instant changedAt,
            @Schema(nullable = true) String reason) {
    }

    @Schema(name = "DirectoryStatus")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record DirectoryStatus(
            @Schema(description = "shown to agents: its pricing answers and its inference side is up") boolean online,
            @Schema(nullable = true, description = "when its pricing side last went online or offline") Instant since,
            @Schema(nullable = true) Instant lastChecked,
            @Schema(nullable = true) Long latencyMs,
            @Schema(description = "failed checks in a row of its pricing side") int consecutiveFailures,
            @Schema(nullable = true) String lastError,
            @Schema(description = "its /v1/docs (100 characters or more) and the 402 of its chat endpoint without a "
                    + "voucher answer as agents need them") boolean inferenceOnline,
            @Schema(nullable = true, description = "why its inference side failed the last check; null when it passed")
            String inferenceError) {
    }

    @Schema(name = "DirectoryHistory")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record History(
            Instant at,
            @Schema(allowableValues = {"registered", "approved", "suspended", "score_updated", "models_published",
                    "online", "offline", "inference_online", "inference_offline"}) String event,
            @Schema(nullable = true) String detail) {
    }
}
