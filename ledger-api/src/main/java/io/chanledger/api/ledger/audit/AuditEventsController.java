package io.chanledger.api.ledger.audit;

import io.chanledger.api.ledger.admin.AdminGuard;
import io.chanledger.api.http.ApiProblem;
import io.chanledger.domain.eip712.Hex;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Locale;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * Admin: the event stream as NDJSON, streamed ({@code audit export} over HTTP). Page through it
 * with {@code after} = the last line's {@code globalIndex}; an empty answer means the end. With
 * {@code channel}, the channel's events and the channel contract's fee and token changes.
 */
@RestController
class AuditEventsController {

    static final MediaType NDJSON = MediaType.parseMediaType("application/x-ndjson");
    static final long DEFAULT_LIMIT = 10_000;
    static final long MAX_LIMIT = 1_000_000;

    private final AdminGuard admin;
    private final EventExport export;

    AuditEventsController(AdminGuard admin, EventExport export) {
        this.admin = admin;
        this.export = export;
    }

    @GetMapping(path = "/api/audit/events")
    ResponseEntity<StreamingResponseBody> events(@RequestParam(required = false) String after,
                                                 @RequestParam(required = false) String limit,
                                                 @RequestParam(required = false) String channel,
                                                 HttpServletRequest request) {
        admin.require(request);
        long from = number("after", after, 0, 0, Long.MAX_VALUE);
        long count = number("limit", limit, DEFAULT_LIMIT, 1, MAX_LIMIT);
        if (channel != null && !Hex.isBytes32(channel)) {
            throw invalid("channel", "must be a channel id (0x and 64 hex digits)");
        }
        String channelId = channel == null ? null : channel.toLowerCase(Locale.ROOT);
        StreamingResponseBody body = out -> export.write(out, from, count, channelId);
        return ResponseEntity.ok().contentType(NDJSON).body(body);
    }

    private static long number(String name, String value, long fallback, long min, long max) {
        if (value == null) {
            return fallback;
        }
        try {
            long parsed = Long.parseLong(value);
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException ignored) {
            // refused below, naming the parameter
        }
        throw invalid(name, "must be a whole number from " + min + " to " + max);
    }

    private static ApiProblem invalid(String name, String rule) {
        return new ApiProblem(HttpStatus.BAD_REQUEST, "invalid_parameter", "parameter '" + name + "' " + rule,
                Map.of("parameter", name));
    }
}
