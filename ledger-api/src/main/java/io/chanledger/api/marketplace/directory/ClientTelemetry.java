package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.http.ApiProblem;
import io.chanledger.domain.money.Usdc;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;

/**
 * Usage events from agent clients: one event object, an array of them, or {@code {"events": [...]}}.
 *
 * <p>An event that carries {@code httpStatus} or {@code costUsdc} reports a paid request, as the
 * deployed agent client posts after each one: {@code {providerId, latencyMs, httpStatus, costUsdc,
 * protocol, timestamp, agentId}}. Its fields must then all be valid ({@link RequestReport}); the
 * aggregates per provider are built from these. {@code httpStatus} 0 is how the client reports a
 * request that got no HTTP answer at all: a failure without a status. {@code agentId} and
 * {@code timestamp} are checked for shape only: an agent id is whatever the sender writes, so it
 * bounds nothing (the quotas count wallets and networks, {@link ReportQuotas}) and is never stored
 * nor logged; reports count at the time they arrive (a client cannot place them in another
 * window).
 *
 * <p>Every event is also counted in metrics under its {@code event}, {@code type} or {@code name}
 * member when it is a short identifier, else {@value #REQUEST} for a request report and
 * {@value #UNNAMED} for anything else.
 */
final class ClientTelemetry {

    static final String SHAPE = "a JSON object for one event, e.g. {\"providerId\": \"prov-...\", \"latencyMs\": 840, "
            + "\"httpStatus\": 200, \"costUsdc\": \"0.0042\", \"protocol\": \"chan\"}, an array of them, or "
            + "{\"events\": [...]}";
    static final String UNNAMED = "unnamed";
    static final String REQUEST = "paid_request";
    static final long MAX_LATENCY_MS = 3_600_000;
    static final int MAX_AGENT_ID = 200;
    /** The status the deployed client reports for a request that got no HTTP answer. */
    static final int NO_ANSWER = 0;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");
    private static final List<String> NAME_MEMBERS = List.of("event", "type", "name");

    /**
     * A paid request as the client reported it: the latency it observed (whole milliseconds), the
     * HTTP status it got (null: no HTTP answer), what it paid in USDC base units.
     */
    record RequestReport(String providerId, long latencyMs, Integer httpStatus, BigInteger cost) {
    }

    /** One event: its metric name, and its request report when it is one. */
    record Event(String name, RequestReport report) {
    }

    private ClientTelemetry() {
    }

    /** The events of {@code body}, at most {@code maxEvents}; a 400 naming the first event and field at fault. */
    static List<Event> events(JsonNode body, int maxEvents, String protocol, BigInteger maxCost) {
        JsonNode events = body.isObject() && body.path("events").isArray() ? body.get("events") : body;
        List<JsonNode> list = new ArrayList<>();
        if (events.isArray()) {
            events.forEach(list::add);
        } else {
            list.add(events);
        }
        if (list.isEmpty()) {
            throw invalid("no events; send " + SHAPE, Map.of());
        }
        if (list.size() > maxEvents) {
            throw invalid(list.size() + " events in one body; at most " + maxEvents + " are taken", Map.of());
        }
        List<Event> parsed = new ArrayList<>(list.size());
        for (int index = 0; index < list.size(); index++) {
            JsonNode event = list.get(index);
            if (!event.isObject()) {
                throw invalid("every event must be a JSON object; send " + SHAPE, Map.of("event", index));
            }
            RequestReport report = isRequestReport(event) ? report(event, index, protocol, maxCost) : null;
            parsed.add(new Event(name(event, report != null), report));
        }
        return parsed;
    }

    private static boolean isRequestReport(JsonNode event) {
        return event.has("httpStatus") || event.has("costUsdc");
    }

    private static RequestReport report(JsonNode event, int index, String protocol, BigInteger maxCost) {
        JsonNode providerId = event.get("providerId");
        if (providerId == null || !providerId.isTextual() || providerId.textValue().isBlank()) {
            throw field(index, "providerId", "is required: the id of the provider, as /api/mcp/providers lists it");
        }
        long latencyMs = latency(event.get("latencyMs"), index);
        JsonNode status = event.get("httpStatus");
        if (status == null || !status.isIntegralNumber() || !status.canConvertToInt()
                || status.intValue() != NO_ANSWER && (status.intValue() < 100 || status.intValue() > 599)) {
            throw field(index, "httpStatus", "must be the HTTP status of the request, an integer from 100 to 599, "
                    + "or 0 when it got no HTTP answer");
        }
        BigInteger cost = cost(event.get("costUsdc"), index, maxCost);
        JsonNode reportedProtocol = event.get("protocol");
        if (reportedProtocol != null && !reportedProtocol.isNull()
                && (!reportedProtocol.isTextual() || !reportedProtocol.textValue().equals(protocol))) {
            throw field(index, "protocol", "this marketplace takes telemetry on providers of protocol " + protocol);
        }
        JsonNode timestamp = event.get("timestamp");
        if (timestamp != null && !timestamp.isNull() && !timestamp.isTextual() && !timestamp.isNumber()) {
            throw field(index, "timestamp", "must be an ISO-8601 time or epoch milliseconds");
        }
        JsonNode agentId = event.get("agentId");
        if (agentId != null && !agentId.isNull()
                && (!agentId.isTextual() || agentId.textValue().length() > MAX_AGENT_ID)) {
            throw field(index, "agentId", "must be a string of at most " + MAX_AGENT_ID + " characters");
        }
        return new RequestReport(providerId.textValue(), latencyMs,
                status.intValue() == NO_ANSWER ? null : status.intValue(), cost);
    }

    /** Milliseconds, a fraction rounded half-up (clients measure with performance.now()). */
    private static long latency(JsonNode node, int index) {
        BigDecimal value = JsonDecimals.of(node).orElseThrow(() -> field(index, "latencyMs",
                "must be the milliseconds the request took, a number from 0 to " + MAX_LATENCY_MS));
        if (value.signum() < 0 || value.compareTo(BigDecimal.valueOf(MAX_LATENCY_MS)) > 0) {
            throw field(index, "latencyMs", "must be a number of milliseconds from 0 to " + MAX_LATENCY_MS);
        }
        return value.setScale(0, RoundingMode.HALF_UP).longValueExact();
    }

    /**
     * A USDC amount as a decimal string ("0.0042") or a JSON number, read exactly (the body is read
     * with every number as a decimal): at most six decimals, not negative, at most {@code maxCost}.
     */
    private static BigInteger cost(JsonNode node, int index, BigInteger maxCost) {
        String hint = "must be what the request cost in USDC, a decimal string such as \"0.0042\" or a number, "
                + "with at most " + Usdc.DECIMALS + " decimals";
        BigInteger units;
        if (node != null && node.isTextual()) {
            try {
                units = Usdc.parseDecimalUsdc(node.textValue());
            } catch (IllegalArgumentException e) {
                throw field(index, "costUsdc", hint + " (" + e.getMessage() + ")");
            }
        } else {
            BigDecimal value = JsonDecimals.of(node).orElseThrow(() -> field(index, "costUsdc", hint));
            // a bound on the digits before the point keeps an exponent like 1e999999999 from being expanded
            if (value.signum() < 0 || value.precision() - value.scale() > 40
                    || value.stripTrailingZeros().scale() > Usdc.DECIMALS) {
                throw field(index, "costUsdc", hint);
            }
            units = value.movePointRight(Usdc.DECIMALS).toBigIntegerExact();
        }
        if (units.compareTo(maxCost) > 0) {
            throw field(index, "costUsdc", "is above " + Usdc.formatDecimalUsdc(maxCost)
                    + " USDC, more than one request of this marketplace costs");
        }
        return units;
    }

    private static String name(JsonNode event, boolean requestReport) {
        for (String member : NAME_MEMBERS) {
            JsonNode value = event.get(member);
            if (value != null && value.isTextual() && NAME.matcher(value.textValue()).matches()) {
                return value.textValue();
            }
        }
        return requestReport ? REQUEST : UNNAMED;
    }

    private static ApiProblem field(int index, String field, String detail) {
        return invalid("events[" + index + "]." + field + ": " + detail, Map.of("event", index, "field", field));
    }

    private static ApiProblem invalid(String detail, Map<String, Object> properties) {
        return new ApiProblem(HttpStatus.BAD_REQUEST, "invalid_telemetry", detail, properties);
    }
}
