package io.chanledger.projections.channel;

import io.chanledger.domain.channel.ChannelClaimed;
import io.chanledger.domain.channel.ChannelClosed;
import io.chanledger.domain.channel.ChannelExpired;
import io.chanledger.domain.channel.ChannelOpenConfirmed;
import io.chanledger.domain.channel.ChannelOpened;
import io.chanledger.domain.channel.CloseAuthorized;
import io.chanledger.domain.channel.VoucherAccepted;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.messaging.Message;

/** The events of the Channel aggregate, and the channels a batch of messages is about. */
public final class ChannelEvents {

    public static final Set<Class<?>> TYPES = Set.of(ChannelOpened.class, ChannelOpenConfirmed.class,
            VoucherAccepted.class, ChannelClaimed.class, ChannelExpired.class, ChannelClosed.class,
            CloseAuthorized.class);

    private ChannelEvents() {
    }

    /** The channel {@code event} is about; null when it is not a channel event. */
    public static String channelId(Object event) {
        return switch (event) {
            case ChannelOpened e -> e.channelId();
            case ChannelOpenConfirmed e -> e.channelId();
            case VoucherAccepted e -> e.channelId();
            case ChannelClaimed e -> e.channelId();
            case ChannelExpired e -> e.channelId();
            case ChannelClosed e -> e.channelId();
            case CloseAuthorized e -> e.channelId();
            default -> null;
        };
    }

    /** Identifiers of the channels whose events are among {@code messages}, in order of first appearance. */
    public static Set<String> channelIds(List<? extends Message<?>> messages) {
        Set<String> ids = new LinkedHashSet<>();
        for (Message<?> message : messages) {
            if (message instanceof DomainEventMessage<?> event && TYPES.contains(event.getPayloadType())) {
                ids.add(event.getAggregateIdentifier());
            }
        }
        return ids;
    }
}
