package io.chanledger.api.channels.command;

import io.chanledger.domain.channel.ChannelState;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.stereotype.Component;

/** Reads one channel's events straight from the event store. */
@Component
public class ChannelHistory {

    private final EventStore eventStore;

    ChannelHistory(EventStore eventStore) {
        this.eventStore = eventStore;
    }

    /** The channel's events, oldest first; empty when the ledger has never heard of it. */
    public List<DomainEventMessage<?>> events(String channelId) {
        return eventStore.readEvents(channelId).asStream().collect(Collectors.toList());
    }

    public Optional<ChannelState> state(String channelId) {
        List<DomainEventMessage<?>> events = events(channelId);
        if (events.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(ChannelState.replay(events.stream().map(DomainEventMessage::getPayload).toList()));
    }
}
