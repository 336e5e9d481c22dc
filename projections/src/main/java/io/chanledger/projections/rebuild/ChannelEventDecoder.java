package io.chanledger.projections.rebuild;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.chanledger.domain.chain.ChainRef;
import io.chanledger.domain.channel.ChannelEvent;
import io.chanledger.domain.channel.CloseKind;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads the payloads of the Channel aggregate's events, for a rebuild and for the auditor's
 * verify of an export, with a streaming parser rather than with Jackson's binding of records,
 * which took nine tenths of a rebuild reader's time. It takes only the form the event store's mapper writes — each record component once by
 * name, uint256 values as decimal strings, nothing else in the object — and hands any other
 * payload to that mapper's own reader, so that every payload reads exactly as the mapper reads
 * it, failures included.
 */
public final class ChannelEventDecoder {

    /** What a component's JSON value must be for the fast path to take it. */
    private enum Kind {
        CHANNEL_ID, TEXT, UINT, LONG, OPTIONAL_LONG, INT, BOOLEAN, CHAIN_REF, CLOSE_KIND
    }

    /**
     * A record's components by name and kind, and how to make the record from their values: read
     * from the record class itself, so that a component added to an event is decoded with no
     * change here.
     */
    private record Shape(String[] names, Kind[] kinds, MethodHandle create) {

        Shape {
            if (names.length != kinds.length || names.length > Long.SIZE) {
                throw new IllegalArgumentException("one kind per name, at most 64 components");
            }
        }

        static Shape of(Class<? extends Record> type) {
            RecordComponent[] components = type.getRecordComponents();
            String[] names = new String[components.length];
            Kind[] kinds = new Kind[components.length];
            Class<?>[] types = new Class<?>[components.length];
            for (int i = 0; i < components.length; i++) {
                names[i] = components[i].getName();
                types[i] = components[i].getType();
                kinds[i] = kindOf(names[i], types[i], type);
            }
            try {
                MethodHandle constructor = MethodHandles.publicLookup()
                        .findConstructor(type, MethodType.methodType(void.class, types));
                return new Shape(names, kinds, constructor.asSpreader(Object[].class, components.length)
                        .asType(MethodType.methodType(Object.class, Object[].class)));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("no public canonical constructor of " + type.getName(), e);
            }
        }

        private static Kind kindOf(String name, Class<?> type, Class<?> record) {
            if (type == String.class) {
                return name.equals("channelId") ? Kind.CHANNEL_ID : Kind.TEXT;
            }
            if (type == BigInteger.class) {
                return Kind.UINT;
            }
            if (type == long.class) {
                return Kind.LONG;
            }
            if (type == Long.class) {
                return Kind.OPTIONAL_LONG;
            }
            if (type == int.class) {
                return Kind.INT;
            }
            if (type == boolean.class || type == Boolean.class) {
                return Kind.BOOLEAN;
            }
            if (type == ChainRef.class) {
                return Kind.CHAIN_REF;
            }
            if (type == CloseKind.class) {
                return Kind.CLOSE_KIND;
            }
            throw new IllegalStateException("no fast reading of " + record.getSimpleName() + "." + name + " ("
                    + type.getName() + ")");
        }

        Object create(Object[] values) {
            try {
                return create.invokeExact(values);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }

        int indexOf(String name) {
            for (int i = 0; i < names.length; i++) {
                if (names[i].equals(name)) {
                    return i;
                }
            }
            return -1;
        }
    }

    /** Returned where the payload is not in the form the fast path takes. */
    private static final Object OTHER_FORM = new Object();

    private static final Shape CHAIN_REF = Shape.of(ChainRef.class);

    /** The mapper's reader and the fast path's shape of each channel event, by payload type name. */
    private record Decoding(ObjectReader reader, Shape shape) {
    }

    private final JsonFactory json;
    private final Map<String, Decoding> decodings = new HashMap<>();

    public ChannelEventDecoder(ObjectMapper mapper) {
        this.json = mapper.getFactory();
        for (Class<? extends ChannelEvent> type : ChannelEvent.TYPES) {
            decodings.put(type.getName(), new Decoding(mapper.readerFor(type), Shape.of(type.asSubclass(Record.class))));
        }
    }

    /** Whether payloads of {@code payloadType} are channel events. */
    public boolean decodes(String payloadType) {
        return decodings.containsKey(payloadType);
    }

    /**
     * The channel event in {@code payload} (JSON in UTF-8) as the mapper reads it; null when
     * {@code payloadType} is not a channel event. {@code channelId} is the stored event's
     * aggregate identifier: the event's own channel id is that String when they are equal, one
     * String less for each event and a quicker look-up of its row.
     */
    public ChannelEvent decode(String payloadType, byte[] payload, String channelId) throws IOException {
        Decoding decoding = decodings.get(payloadType);
        if (decoding == null) {
            return null;
        }
        Object event = fast(decoding.shape(), payload, channelId);
        return (ChannelEvent) (event != OTHER_FORM ? event : decoding.reader().readValue(payload));
    }

    /** The event as the fast path reads it; null where it leaves the payload to the mapper. */
    public Object decodeWithoutMapper(String payloadType, byte[] payload, String channelId) throws IOException {
        Object event = fast(decodings.get(payloadType).shape(), payload, channelId);
        return event == OTHER_FORM ? null : event;
    }

    /** The event, or {@link #OTHER_FORM} when the payload is not exactly in the mapper's form. */
    private Object fast(Shape shape, byte[] payload, String channelId) throws IOException {
        try (JsonParser parser = json.createParser(payload)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return OTHER_FORM;
            }
            Object event = object(parser, shape, channelId);
            return parser.nextToken() == null ? event : OTHER_FORM;
        } catch (IOException | RuntimeException e) {
            // malformed JSON or values a constructor refuses: the mapper's reader reports them its own way
            return OTHER_FORM;
        }
    }

    /** The record of {@code shape} whose object starts at the parser's current token. */
    private static Object object(JsonParser parser, Shape shape, String channelId) throws IOException {
        Object[] values = new Object[shape.names().length];
        long seen = 0;
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken()) {
            if (token != JsonToken.FIELD_NAME) {
                return OTHER_FORM;
            }
            int index = shape.indexOf(parser.currentName());
            if (index < 0 || (seen & 1L << index) != 0) {
                return OTHER_FORM;
            }
            seen |= 1L << index;
            parser.nextToken();
            Object value = value(parser, shape.kinds()[index], channelId);
            if (value == OTHER_FORM) {
                return OTHER_FORM;
            }
            values[index] = value;
        }
        for (int i = 0; i < values.length; i++) {
            // the mapper leaves a missing reference null, but a missing primitive is not the mapper's form
            if ((seen & 1L << i) == 0 && primitive(shape.kinds()[i])) {
                return OTHER_FORM;
            }
        }
        return shape.create(values);
    }

    private static boolean primitive(Kind kind) {
        return kind == Kind.LONG || kind == Kind.INT || kind == Kind.BOOLEAN;
    }

    private static Object value(JsonParser parser, Kind kind, String channelId) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_NULL) {
            return primitive(kind) ? OTHER_FORM : null;
        }
        return switch (kind) {
            case CHANNEL_ID -> token == JsonToken.VALUE_STRING ? textOr(parser, channelId) : OTHER_FORM;
            case TEXT -> token == JsonToken.VALUE_STRING ? parser.getText() : OTHER_FORM;
            case UINT -> token == JsonToken.VALUE_STRING ? decimal(parser) : OTHER_FORM;
            case LONG, OPTIONAL_LONG -> token == JsonToken.VALUE_NUMBER_INT
                    && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER ? parser.getLongValue() : OTHER_FORM;
            case INT -> token == JsonToken.VALUE_NUMBER_INT
                    && parser.getNumberType() == JsonParser.NumberType.INT ? parser.getIntValue() : OTHER_FORM;
            case BOOLEAN -> token == JsonToken.VALUE_TRUE ? Boolean.TRUE
                    : token == JsonToken.VALUE_FALSE ? Boolean.FALSE : OTHER_FORM;
            case CHAIN_REF -> token == JsonToken.START_OBJECT ? object(parser, CHAIN_REF, null) : OTHER_FORM;
            case CLOSE_KIND -> token == JsonToken.VALUE_STRING ? closeKind(parser.getText()) : OTHER_FORM;
        };
    }

    /** The current text: {@code known} itself when it is equal. */
    private static String textOr(JsonParser parser, String known) throws IOException {
        int length = parser.getTextLength();
        if (known == null || known.length() != length) {
            return parser.getText();
        }
        char[] chars = parser.getTextCharacters();
        int offset = parser.getTextOffset();
        for (int i = 0; i < length; i++) {
            if (chars[offset + i] != known.charAt(i)) {
                return parser.getText();
            }
        }
        return known;
    }

    /** A decimal string of digits with an optional minus sign, without a String where it fits a long. */
    private static Object decimal(JsonParser parser) throws IOException {
        char[] chars = parser.getTextCharacters();
        int offset = parser.getTextOffset();
        int length = parser.getTextLength();
        boolean negative = length > 0 && chars[offset] == '-';
        int first = negative ? offset + 1 : offset;
        int end = offset + length;
        if (first == end) {
            return OTHER_FORM;
        }
        long value = 0;
        for (int i = first; i < end; i++) {
            int digit = chars[i] - '0';
            if (digit < 0 || digit > 9) {
                return OTHER_FORM;
            }
            value = value * 10 + digit;
        }
        if (end - first <= 18) {
            return BigInteger.valueOf(negative ? -value : value);
        }
        return new BigInteger(new String(chars, offset, length));
    }

    private static Object closeKind(String name) {
        for (CloseKind kind : CloseKind.values()) {
            if (kind.name().equals(name)) {
                return kind;
            }
        }
        return OTHER_FORM;
    }
}
