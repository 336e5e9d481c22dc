package io.chanledger.api.ledger.channels.query;

import io.chanledger.api.http.ApiProblem;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.projections.channel.ChannelQuery;
import java.util.Locale;
import java.util.Map;
import org.springframework.http.HttpStatus;

/** Validation of the channel listing's query parameters; a bad one is a 400 naming it. */
final class ChannelListParameters {

    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 200;

    private ChannelListParameters() {
    }

    static ChannelQuery parse(String provider, String consumer, String status, String atRisk, String cursor,
                              String limit) {
        return new ChannelQuery(address("provider", provider), address("consumer", consumer), status(status),
                bool("atRisk", atRisk), cursor == null ? null : Cursors.channelsAfter(cursor),
                limit("limit", limit, DEFAULT_LIMIT, MAX_LIMIT));
    }

    /** Lowercase address, null when absent; mixed case must be the EIP-55 checksum. */
    static String address(String name, String value) {
        if (value == null) {
            return null;
        }
        try {
            return Hex.normalizeAddress(value);
        } catch (IllegalArgumentException e) {
            throw invalid(name, "must be an address (0x and 40 hex digits, EIP-55 when mixed case)");
        }
    }

    static int limit(String name, String value, int fallback, int max) {
        if (value == null) {
            return fallback;
        }
        if (!value.matches("[0-9]{1,4}") || Integer.parseInt(value) < 1 || Integer.parseInt(value) > max) {
            throw invalid(name, "must be a whole number from 1 to " + max);
        }
        return Integer.parseInt(value);
    }

    private static ChannelStatus status(String value) {
        if (value == null) {
            return null;
        }
        for (ChannelStatus status : ChannelStatus.values()) {
            if (status.code().equals(value)) {
                return status;
            }
        }
        throw invalid("status", "must be one of open, expired, closed");
    }

    private static Boolean bool(String name, String value) {
        if (value == null) {
            return null;
        }
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> throw invalid(name, "must be true or false");
        };
    }

    static ApiProblem invalid(String name, String rule) {
        return new ApiProblem(HttpStatus.BAD_REQUEST, "invalid_parameter", "parameter '" + name + "' " + rule,
                Map.of("parameter", name));
    }
}
