package io.chanledger.api.eventstore;

import io.chanledger.domain.channel.ChannelEvent;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericTrackedDomainEventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.messaging.GenericMessage;
import org.axonframework.messaging.MetaData;
import org.axonframework.serialization.CachingSupplier;

/**
 * The channel events this process committed, by event identifier, until {@link EventTail}'s reader
 * reads them back; at most {@code capacity} (the ring's), the oldest dropped first (an event the
 * reader read before its commit's hook ran here is parsed as other instances' events are).
 *
 * <p>The ring gets such an event as its commit recorded it: payload, meta data and identifier,
 * with the token and time read back. It is not parsed again from what the reader read back:
 * parsing them was a fifth of the read models' processor threads' time under the gateway bench
 * (BENCHMARKS.md, "The paid request": Axon without what no one reads). Nor does the ring keep what
 * was read back (the stored bytes and their wrappers), which made each of its events hold about
 * 2 KiB where 0.8 do: the ring's events are most of what outlives a young collection under load,
 * so they are what each young collection copies, and once that is more than half the survivor
 * space the collector moves everything that survives once to the old generation, which fills it
 * (BENCHMARKS.md, "The paid request": the event ring). A channel event is a record of values that
 * the store's JSON gives back equal ({@code CommittedPayloadsTest}).
 *
 * <p>Guarded by its own monitor, not the ring's lock: the commit workers that fill it, on the
 * payment path, do not wait for the streams that read the ring.
 */
final class CommittedEvents {

    /**
     * What a commit of this process recorded of one of its events. Not the committed message itself:
     * once the store has serialized it, it holds its stored bytes too.
     */
    private record Committed(String identifier, String type, String aggregateIdentifier, long sequenceNumber,
                             Object payload, MetaData metaData) {
    }

    private final int capacity;
    private final Map<String, Committed> events = new HashMap<>();
    private final ArrayDeque<String> order = new ArrayDeque<>();

    CommittedEvents(int capacity) {
        this.capacity = capacity;
    }

    /** Keeps the channel events among {@code committed}, which this process has just committed. */
    synchronized void add(List<? extends EventMessage<?>> committed) {
        for (EventMessage<?> event : committed) {
            if (event instanceof DomainEventMessage<?> domain
                    && ChannelEvent.class.isAssignableFrom(event.getPayloadType())) {
                events.put(event.getIdentifier(), new Committed(domain.getIdentifier(), domain.getType(),
                        domain.getAggregateIdentifier(), domain.getSequenceNumber(), domain.getPayload(),
                        domain.getMetaData()));
                order.add(event.getIdentifier());
                if (order.size() > capacity) {
                    events.remove(order.poll());
                }
            }
        }
    }

    /**
     * The event read back as this process committed it, with the token and time read back, if this
     * process committed it; else as read. Nothing else of what was read back is kept.
     */
    TrackedEventMessage<?> asCommitted(TrackedEventMessage<?> read) {
        Committed committed;
        synchronized (this) {
            committed = events.remove(read.getIdentifier());
        }
        if (committed == null) {
            return read;
        }
        // one message and one time around the payload: a domain event message made first and then
        // tracked would be two of each
        return new GenericTrackedDomainEventMessage<>(read.trackingToken(), committed.type(),
                committed.aggregateIdentifier(), committed.sequenceNumber(),
                new GenericMessage<>(committed.identifier(), committed.payload(), committed.metaData()),
                CachingSupplier.of(read.getTimestamp()));
    }
}
