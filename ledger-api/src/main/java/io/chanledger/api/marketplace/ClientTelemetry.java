package io.chanledger.api.marketplace;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.web.ApiProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;

/**
 * Anonymous usage events from agent clients: one event object, an array of them, or
 * {@code {"events": [...]}}. Only the count per event name is kept, as metrics; the name is the
 * event's {@code event}, {@code type} or {@code name} member when it is a short identifier, else
 * {@code unnamed}. Nothing else of the body is read or stored.
 */
final class ClientTelemetry {

    static final String SHAPE = "a JSON object for one event, e.g. {\"event\": \"provider_selected\"}, "
            + "an array of them, or {\"events\": [...]}";
    static final String UNNAMED = "unnamed";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");
    private static final List<String> NAME_MEMBERS = List.of("event", "type", "name");

    private ClientTelemetry() {
    }

    /** The names of the events of {@code body}, at most {@code maxEvents} of them. */
    static List<String> eventNames(JsonNode body, int maxEvents) {
        JsonNode events = body.isObject() && body.path("events").isArray() ? body.get("events") : body;
        List<JsonNode> list = new ArrayList<>();
        if (events.isArray()) {
            events.forEach(list::add);
        } else {
            list.add(events);
        }
        if (list.isEmpty()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "invalid_telemetry", "no events; send " + SHAPE);
        }
        if (list.size() > maxEvents) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "invalid_telemetry", list.size() + " events in one body; at most "
                    + maxEvents + " are taken");
        }
        List<String> names = new ArrayList<>(list.size());
        for (JsonNode event : list) {
            if (!event.isObject()) {
                throw new ApiProblem(HttpStatus.BAD_REQUEST, "invalid_telemetry", "every event must be a JSON object; send "
                        + SHAPE);
            }
            names.add(name(event));
        }
        return names;
    }

    private static String name(JsonNode event) {
        for (String member : NAME_MEMBERS) {
            JsonNode value = event.get(member);
            if (value != null && value.isTextual() && NAME.matcher(value.textValue()).matches()) {
                return value.textValue();
            }
        }
        return UNNAMED;
    }
}
