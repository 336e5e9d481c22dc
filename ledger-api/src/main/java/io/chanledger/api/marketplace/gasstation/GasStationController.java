package io.chanledger.api.marketplace.gasstation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.chanledger.api.http.ClientAddress;
import io.chanledger.api.http.ClientRateLimiter;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/gas-station {address}} (docs/protocol.md §4.2). Answers in the gas station's own shape,
 * {@code {success, ...}}, for every outcome including malformed bodies: the clients of this
 * endpoint read {@code success} and {@code error}.
 */
@RestController
@Tag(name = "Gas station")
class GasStationController {

    private static final Logger log = LoggerFactory.getLogger(GasStationController.class);

    private final GasStation station;
    private final ClientRateLimiter limiter;
    private final ObjectReader json;
    private final String clientIpHeader;
    private final Duration retryAfter;

    GasStationController(GasStation station, ClientRateLimiter limiter, ObjectMapper json,
                         GasStationProperties properties) {
        this.station = station;
        this.limiter = limiter;
        this.json = json.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        this.retryAfter = properties.retryAfter();
        this.clientIpHeader = properties.clientIpHeader();
    }

    @Operation(summary = "Send the one-time gas grant (0.1 POL) to a wallet holding at least 5 USDC",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = "application/json",
                    examples = @ExampleObject("{\"address\":\"0x5315f457a01c71a5d7ee87da126af57e8cdeda47\"}"))))
    @ApiResponse(responseCode = "200", description = "granted: {success:true, txHash, amount (wei), address}")
    @ApiResponse(responseCode = "400", description = "malformed_body or invalid_address")
    @ApiResponse(responseCode = "409", description = "already_granted (with the earlier txHash) or grant_pending")
    @ApiResponse(responseCode = "422", description = "insufficient_usdc (with balance and minimum) or transfer_reverted")
    @ApiResponse(responseCode = "429", description = "rate_limited, with Retry-After")
    @ApiResponse(responseCode = "503", description = "faucet_empty, rpc_unavailable, transfer_unconfirmed,"
            + " transfer_refused or gas_station_disabled, with Retry-After where asking again can help")
    @PostMapping("/api/gas-station")
    ResponseEntity<Map<String, Object>> request(@RequestBody(required = false) byte[] body, HttpServletRequest request) {
        Duration wait = limiter.acquire(ClientAddress.of(request, clientIpHeader));
        if (!wait.isZero()) {
            return render(station.counted(GasStationReply.rateLimited(wait)));
        }
        String address;
        try {
            address = address(body);
        } catch (MalformedBody e) {
            return render(station.counted(GasStationReply.malformedBody(e.getMessage())));
        }
        try {
            return render(station.request(address));
        } catch (RuntimeException e) {
            log.error("gas station request failed", e);
            return render(station.counted(GasStationReply.unavailable(retryAfter)));
        }
    }

    /** The {@code address} member of a JSON object body; any other shape is malformed. */
    private String address(byte[] body) {
        if (body == null || body.length == 0) {
            throw new MalformedBody("send a JSON object with the wallet's address: {\"address\":\"0x...\"}");
        }
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (JsonProcessingException e) {
            throw new MalformedBody("the request body is not valid JSON");
        } catch (IOException e) {
            throw new MalformedBody("the request body could not be read");
        }
        if (root == null || !root.isObject()) {
            throw new MalformedBody("the request body must be a JSON object: {\"address\":\"0x...\"}");
        }
        JsonNode address = root.get("address");
        if (address == null || address.isNull()) {
            throw new MalformedBody("the field 'address' is required");
        }
        if (!address.isTextual()) {
            throw new MalformedBody("the field 'address' must be a string");
        }
        return address.textValue();
    }

    private static ResponseEntity<Map<String, Object>> render(GasStationReply reply) {
        ResponseEntity.BodyBuilder response = ResponseEntity.status(reply.status()).contentType(MediaType.APPLICATION_JSON);
        if (reply.retryAfter() != null) {
            response.header(HttpHeaders.RETRY_AFTER, reply.retryAfterSeconds());
        }
        return response.body(reply.body());
    }

    private static final class MalformedBody extends RuntimeException {
        MalformedBody(String message) {
            super(message, null, false, false);
        }
    }
}
