package io.chanledger.api.ledger.channels.query;

import io.chanledger.domain.chain.ChainRef;
import io.chanledger.domain.channel.ChannelEvent;
import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.oas.models.media.ComposedSchema;
import io.swagger.v3.oas.models.media.Discriminator;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI schemas of a channel's recorded events. {@link ChannelEventResponse} carries the
 * stored event as it is, so its payload's shape depends on its {@code type}: the document says
 * which, with one schema per event type ({@code ChannelClaimedEvent}, whose {@code payload} is a
 * {@code ChannelClaimed}, …), and {@code ChannelEvent} is one of them, told apart by {@code type}.
 * Clients generated from the document (the web pages' types) thus read each event's own fields.
 * Built from {@link ChannelEvent#TYPES} and the event records themselves, so that a new event or
 * field appears here with no change.
 */
@Configuration(proxyBeanMethods = false)
class ChannelEventSchemas {

    /** The schema name of one recorded channel event, of any type. */
    static final String EVENT = "ChannelEvent";

    private static final String REFS = "#/components/schemas/";

    @Bean
    OpenApiCustomizer channelEventsByType() {
        return openApi -> {
            Components components = openApi.getComponents();
            Schema<?> envelope = components == null || components.getSchemas() == null ? null
                    : components.getSchemas().get(EVENT);
            if (envelope == null || envelope.getProperties() == null) {
                return;
            }
            // the converters springdoc registered its settings with (uint256 as text), for this spec version
            ModelConverters converters = ModelConverters.getInstance(openApi.getSpecVersion() == SpecVersion.V31);
            Discriminator byType = new Discriminator().propertyName("type");
            ComposedSchema anyEvent = new ComposedSchema();
            anyEvent.description("A recorded channel event; `type` tells which, and so the fields of `payload`.");
            for (Class<? extends ChannelEvent> type : ChannelEvent.TYPES) {
                String payloadName = type.getSimpleName();
                converters.readAll(new AnnotatedType(type)).forEach(components::addSchemas);
                components.getSchemas().get(payloadName).required(alwaysPresent(type.asSubclass(Record.class)));
                Map<String, Schema> properties = new LinkedHashMap<>(envelope.getProperties());
                properties.put("type", new StringSchema()._enum(List.of(payloadName)));
                properties.put("payload", new Schema<>().$ref(REFS + payloadName));
                Schema<?> event = new ObjectSchema().required(List.of("type", "timestamp", "payload"));
                event.setProperties(properties);
                String eventName = payloadName + "Event";
                components.addSchemas(eventName, event);
                anyEvent.addOneOfItem(new Schema<>().$ref(REFS + eventName));
                byType.mapping(payloadName, REFS + eventName);
            }
            anyEvent.discriminator(byType);
            components.addSchemas(EVENT, anyEvent);
            Schema<?> chainRef = components.getSchemas().get("ChainRef");
            if (chainRef != null) {
                chainRef.required(alwaysPresent(ChainRef.class));
            }
        };
    }

    /**
     * The members every stored event of {@code type} has: its channel id, its primitive
     * components and a chain ref's (which refuses nulls). Others may be null, in events recorded
     * before they existed, and the API leaves nulls out.
     */
    private static List<String> alwaysPresent(Class<? extends Record> type) {
        return Arrays.stream(type.getRecordComponents())
                .filter(c -> c.getType().isPrimitive() || c.getName().equals("channelId") || type == ChainRef.class)
                .map(RecordComponent::getName)
                .toList();
    }
}
