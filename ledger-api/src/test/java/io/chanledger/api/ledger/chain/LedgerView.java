package io.chanledger.api.ledger.chain;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.AdminReads;
import io.chanledger.api.support.Http;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The ledger's answers about a channel, read over HTTP like any client would, with the admin
 * (auditor) token: these tests compare every figure, the off-chain ones included.
 */
final class LedgerView {

    private final String baseUrl;

    LedgerView(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    /** GET /api/channels/{id}, or null while the ledger does not know the channel. */
    JsonNode channel(String channelId) {
        Http.Reply reply = AdminReads.get(baseUrl + "/api/channels/" + channelId);
        if (reply.status() == 404) {
            return null;
        }
        if (reply.status() != 200) {
            throw new AssertionError("GET channel answered " + reply.status() + ": " + reply.body());
        }
        return reply.json();
    }

    /** The event types of a channel, in order; empty when unknown. */
    List<String> eventTypes(String channelId) {
        Http.Reply reply = AdminReads.get(baseUrl + "/api/channels/" + channelId + "/events");
        List<String> types = new ArrayList<>();
        if (reply.status() == 200) {
            reply.json().forEach(event -> types.add(event.path("type").asText()));
        }
        return types;
    }

    JsonNode awaitChannel(String channelId, String what, java.util.function.Predicate<JsonNode> done) {
        return await("channel " + channelId + ": " + what).atMost(Duration.ofSeconds(30))
                .until(() -> channel(channelId), value -> value != null && done.test(value));
    }

    JsonNode awaitStatus(String channelId, String status) {
        return awaitChannel(channelId, "status " + status, state -> status.equals(state.path("status").asText()));
    }

    Http.Reply postVoucher(String channelId, BigInteger amount, BigInteger nonce, String signature) {
        return Http.postJson(baseUrl + "/api/channels/" + channelId + "/vouchers",
                "{\"channelId\":\"" + channelId + "\",\"amount\":\"" + amount + "\",\"nonce\":\"" + nonce
                        + "\",\"signature\":\"" + signature + "\"}");
    }

    static BigInteger amount(JsonNode state, String field) {
        JsonNode value = state.path(field);
        return value.isMissingNode() || value.isNull() ? null : new BigInteger(value.asText());
    }
}
