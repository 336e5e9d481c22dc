package io.chanledger.api.ledger.audit;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One line of an export as {@link ExportVerifier} reads it: the stored event's envelope, and its
 * payload's JSON exactly as it stands in the line (so that the payload is decoded from the bytes
 * the export holds, not from a tree re-rendered from them).
 */
record ExportLine(long globalIndex, String type, String aggregateId, long sequence, String payloadType,
                  byte[] payload) {

    /**
     * The envelope's fields, read as a tree would read them (a missing or unreadable number is 0,
     * or -1 for the sequence), and the payload object's bytes exactly as they stand in the line.
     */
    static ExportLine read(String text, ObjectMapper mapper) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        long globalIndex = 0;
        long sequence = -1;
        String type = "";
        String aggregateId = null;
        String payloadType = "";
        byte[] payload = null;
        try (JsonParser parser = mapper.getFactory().createParser(bytes)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("a line is one JSON object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (field) {
                    case "globalIndex" -> globalIndex = parser.getValueAsLong(0);
                    case "sequence" -> sequence = parser.getValueAsLong(-1);
                    case "type" -> type = value.isScalarValue() ? parser.getValueAsString("") : "";
                    case "aggregateId" -> aggregateId = value.isScalarValue() ? parser.getValueAsString(null) : null;
                    case "payloadType" -> payloadType = value.isScalarValue() ? parser.getValueAsString("") : "";
                    case "payload" -> {
                        if (value == JsonToken.START_OBJECT) {
                            int start = (int) parser.currentTokenLocation().getByteOffset();
                            parser.skipChildren();
                            payload = Arrays.copyOfRange(bytes, start, (int) parser.currentLocation().getByteOffset());
                        } else {
                            payload = null;
                        }
                    }
                    default -> parser.skipChildren();
                }
            }
        }
        return new ExportLine(globalIndex, type, aggregateId, sequence, payloadType, payload);
    }

    /** The payload's JSON object; a line whose payload is none is malformed. */
    byte[] payloadObject() {
        if (payload == null) {
            throw new IllegalArgumentException("the payload of " + type + " is not a JSON object");
        }
        return payload;
    }
}
