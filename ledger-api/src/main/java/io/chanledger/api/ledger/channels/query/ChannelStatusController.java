package io.chanledger.api.ledger.channels.query;

import io.chanledger.api.http.ApiProblem;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.projections.channel.ChannelBalance;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/channels/status?channelId=0x…}: a channel's state as agents check it before
 * paying, for anyone. Only what the contract and its logs show: terms, what was claimed, and
 * whether the channel is open, expired or closed. Nothing off-chain (vouchers, charges, holds) is
 * read into it, so it needs no credentials and judges none.
 */
@RestController
@Tag(name = "Channels")
class ChannelStatusController {

    @Schema(name = "ChannelStatus")
    record StatusResponse(
            String channelId,
            @Schema(description = "EIP-55") String consumer,
            @Schema(description = "EIP-55") String provider,
            @Schema(description = "USDC base units, decimal string") BigInteger deposit,
            @Schema(description = "USDC base units paid out by claims, decimal string") BigInteger claimed,
            Instant expiry,
            long expiryEpochSeconds,
            @Schema(allowableValues = {"open", "expired", "closed"}, description = "closed once closed on-chain; "
                    + "expired from its expiry on, even before the ledger records the expiry; open otherwise")
            String status,
            boolean open,
            boolean expired,
            boolean closed,
            @Schema(description = "known from the contract, its open log not final yet") boolean provisional) {
    }

    private final ChannelReads reads;

    ChannelStatusController(ChannelReads reads) {
        this.reads = reads;
    }

    @GetMapping(path = "/api/channels/status", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "A channel's on-chain state: parties, deposit, claimed, expiry, open / expired / closed",
            description = "Public facts only; the same answer for every caller.")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = StatusResponse.class)))
    @ApiResponse(responseCode = "400", description = "invalid_parameter (no channelId) or invalid_channel_id",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(responseCode = "404", description = "channel_not_found",
            content = @Content(mediaType = "application/problem+json"))
    ResponseEntity<StatusResponse> status(@RequestParam(required = false) String channelId) {
        if (channelId == null || channelId.isBlank()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "invalid_parameter",
                    "channelId: the channel to look up is required, 0x followed by 64 hex digits",
                    Map.of("parameter", "channelId"));
        }
        if (!Hex.isBytes32(channelId)) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "invalid_channel_id",
                    "channelId must be 0x followed by 64 hex digits", Map.of("parameter", "channelId"));
        }
        String id = channelId.toLowerCase(Locale.ROOT);
        ChannelBalance balance = reads.balance(id).orElseThrow(() -> new ApiProblem(HttpStatus.NOT_FOUND,
                "channel_not_found", "no channel " + channelId + " in the ledger"));
        ChannelState c = balance.state();
        String status = c.status() == ChannelStatus.CLOSED ? "closed"
                : c.status() == ChannelStatus.EXPIRED || c.expiry() <= reads.now() ? "expired" : "open";
        return ResponseEntity.ok().cacheControl(CacheControl.noCache()).body(new StatusResponse(c.channelId(),
                Hex.toChecksumAddress(c.consumer()), Hex.toChecksumAddress(c.provider()), c.deposit(), c.claimed(),
                Instant.ofEpochSecond(c.expiry()), c.expiry(), status, status.equals("open"), status.equals("expired"),
                status.equals("closed"), c.provisional()));
    }
}
