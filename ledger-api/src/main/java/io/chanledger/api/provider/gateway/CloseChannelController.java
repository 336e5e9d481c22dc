package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.ledger.wallet.WalletAuthenticator;
import io.chanledger.domain.eip712.Hex;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.math.BigInteger;
import java.util.Locale;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.lang.Nullable;

/**
 * {@code POST /v1/close-channel {"channelId"}}: the provider's signed {@code CloseAuthorization}
 * for what the channel was actually charged, with which the consumer calls
 * {@code cooperativeClose} and gets the rest of the deposit back. Signed with the consumer's
 * wallet headers ({@code X-CHAN-Auth-*}), the channel pays for nothing more at once; unsigned (as
 * real clients send it), it goes on paying, see {@link CloseAuthorizer}. The body is taken as bytes
 * and parsed here: a signature covers the body exactly as sent.
 */
@RestController
class CloseChannelController {

    /** {@code excessToReturn} only when positive: see {@link CloseAuthorizer.Authorization}. */
    record CloseAuthorizationResponse(String channelId, BigInteger finalAmount, String signature,
                                      @Nullable BigInteger excessToReturn) {
    }

    private final CloseAuthorizer authorizer;
    private final WalletAuthenticator wallets;
    private final ObjectMapper json;

    CloseChannelController(CloseAuthorizer authorizer, WalletAuthenticator wallets, ObjectMapper json) {
        this.authorizer = authorizer;
        this.wallets = wallets;
        this.json = json;
    }

    /** The body's shape, for the API's description: the endpoint reads the bytes, which a signature covers. */
    record CloseRequest(String channelId) {
    }

    @PostMapping(path = "/v1/close-channel", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(
            mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = CloseRequest.class)))
    CloseAuthorizationResponse close(@RequestBody(required = false) byte[] bytes, HttpServletRequest request) {
        byte[] sent = bytes == null ? new byte[0] : bytes;
        JsonNode body = parse(sent);
        JsonNode id = body == null ? null : body.get("channelId");
        if (id == null || !id.isTextual() || !Hex.isBytes32(id.textValue())) {
            throw GatewayProblem.badRequest("invalid_channel_id", "channelId must be 0x followed by 64 hex digits");
        }
        String requester = wallets.authenticate(request, sent).orElse(null);
        CloseAuthorizer.Authorization authorization = authorizer.authorize(id.textValue().toLowerCase(Locale.ROOT),
                requester);
        return new CloseAuthorizationResponse(authorization.channelId(), authorization.finalAmount(),
                authorization.signature(), authorization.excessToReturn().signum() > 0
                ? authorization.excessToReturn() : null);
    }

    /** The body as JSON (null when empty), refused as the message converters refuse a body that is not JSON. */
    private JsonNode parse(byte[] sent) {
        if (sent.length == 0) {
            return null;
        }
        try {
            return json.readTree(sent);
        } catch (IOException e) {
            throw GatewayProblem.badRequest("invalid_request", "the body is not the JSON expected here");
        }
    }
}
