package io.chanledger.projections.channel;

import io.chanledger.domain.channel.ChannelEvent;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.messaging.Message;

/** The channels a batch of messages is about. */
public final class ChannelEvents {

    private ChannelEvents() {
    }

    /** Identifiers of the channels whose events are among {@code messages}, in order of first appearance. */
    public static Set<String> channelIds(List<? extends Message<?>> messages) {
        Set<String> ids = new LinkedHashSet<>();
        for (Message<?> message : messages) {
            if (message instanceof DomainEventMessage<?> event
                    && ChannelEvent.class.isAssignableFrom(event.getPayloadType())) {
                ids.add(event.getAggregateIdentifier());
            }
        }
        return ids;
    }
}
