package io.chanledger.api.ledger.channels.query;

import io.chanledger.api.http.ApiProblem;
import io.chanledger.domain.eip712.Hex;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * Opaque keyset cursors: base64url of the last row's key, tagged with the listing it belongs to,
 * so a cursor of one listing is refused by another. Clients pass them back unchanged.
 */
final class Cursors {

    private static final String CHANNELS = "channels:";
    private static final String CLAIMS = "claims:";

    private Cursors() {
    }

    static String channels(String lastChannelId) {
        return encode(CHANNELS + lastChannelId);
    }

    /** The channel id to continue after. */
    static String channelsAfter(String cursor) {
        String key = decode(cursor, CHANNELS);
        if (!Hex.isBytes32(key)) {
            throw invalid();
        }
        return key;
    }

    static String claims(long expiry, String channelId) {
        return encode(CLAIMS + expiry + ":" + channelId);
    }

    /** (expiry, channel id) to continue after. */
    static ClaimsPosition claimsAfter(String cursor) {
        String key = decode(cursor, CLAIMS);
        int colon = key.indexOf(':');
        if (colon < 1 || !key.substring(0, colon).matches("[0-9]{1,19}") || !Hex.isBytes32(key.substring(colon + 1))) {
            throw invalid();
        }
        try {
            return new ClaimsPosition(Long.parseLong(key.substring(0, colon)), key.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw invalid();
        }
    }

    record ClaimsPosition(long expiry, String channelId) {
    }

    private static String encode(String key) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(key.getBytes(StandardCharsets.UTF_8));
    }

    private static String decode(String cursor, String tag) {
        try {
            String key = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            if (!key.startsWith(tag)) {
                throw invalid();
            }
            return key.substring(tag.length());
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
    }

    private static ApiProblem invalid() {
        return new ApiProblem(HttpStatus.BAD_REQUEST, "invalid_parameter",
                "parameter 'cursor' is not a cursor of this listing; pass back nextCursor unchanged",
                Map.of("parameter", "cursor"));
    }
}
