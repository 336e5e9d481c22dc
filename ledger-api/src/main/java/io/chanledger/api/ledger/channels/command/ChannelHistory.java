package io.chanledger.api.ledger.channels.command;

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

    /**
     * The channel's events, oldest first; empty when the ledger has never heard of it. Every event
     * from the first: reading from the start skips the channel's snapshots, which are the
     * aggregate's state and not an event of its history.
     */
    public List<DomainEventMessage<?>> events(String channelId) {
        return eventStore.readEvents(channelId, 0).asStream().collect(Collectors.toList());
    }

    public Optional<ChannelState> state(String channelId) {
        List<DomainEventMessage<?>> events = events(channelId);
        if (events.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(ChannelState.replay(events.stream().map(DomainEventMessage::getPayload).toList()));
    }
}
