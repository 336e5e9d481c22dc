package io.chanledger.api.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.util.Locale;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /v1/close-channel {"channelId"}}: the provider's signed {@code CloseAuthorization}
 * for what the channel was actually charged, with which the consumer calls
 * {@code cooperativeClose} and gets the rest of the deposit back.
 */
@RestController
@ConditionalOnGateway
class CloseChannelController {

    record CloseAuthorizationResponse(String channelId, BigInteger finalAmount, String signature) {
    }

    private final CloseAuthorizer authorizer;

    CloseChannelController(CloseAuthorizer authorizer) {
        this.authorizer = authorizer;
    }

    @PostMapping(path = "/v1/close-channel", produces = MediaType.APPLICATION_JSON_VALUE)
    CloseAuthorizationResponse close(@RequestBody(required = false) JsonNode body) {
        JsonNode id = body == null ? null : body.get("channelId");
        if (id == null || !id.isTextual() || !Hex.isBytes32(id.textValue())) {
            throw GatewayProblem.badRequest("invalid_channel_id", "channelId must be 0x followed by 64 hex digits");
        }
        CloseAuthorizer.Authorization authorization = authorizer.authorize(id.textValue().toLowerCase(Locale.ROOT));
        return new CloseAuthorizationResponse(authorization.channelId(), authorization.finalAmount(),
                authorization.signature());
    }
}
