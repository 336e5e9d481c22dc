package io.chanledger.api.ledger.channels.query;

import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.api.ledger.readmodels.ReadModelProperties;
import io.chanledger.domain.channel.ChannelEvent;
import io.chanledger.projections.channel.ChannelBalance;
import io.chanledger.projections.channel.ChannelBalanceRepository;
import io.chanledger.projections.rebuild.ReadModelProgress;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.stereotype.Service;

/**
 * Reads one channel's balance from the read model, as of at least the channel's last event: the
 * read model trails the event store by a batch, so a caller that just had a voucher accepted
 * would otherwise read the balance before it. When the read model lags, the read waits for it
 * (up to {@code chan.read-models.fresh-read-timeout}) and otherwise folds the channel's events
 * itself — at once while the read models are being rebuilt.
 */
@Service
class ChannelReads {

    private static final long POLL_MILLIS = 20;

    private final ChannelBalanceRepository balances;
    private final EventStore eventStore;
    private final ChannelHistory history;
    private final ReadModelProgress progress;
    private final ReadModelProperties properties;
    private final Clock clock;

    ChannelReads(ChannelBalanceRepository balances, EventStore eventStore, ChannelHistory history,
                 ReadModelProgress progress, ReadModelProperties properties, Clock clock) {
        this.balances = balances;
        this.eventStore = eventStore;
        this.history = history;
        this.progress = progress;
        this.properties = properties;
        this.clock = clock;
    }

    /** Empty when the ledger has no event of this channel. */
    Optional<ChannelBalance> balance(String channelId) {
        long deadline = System.nanoTime() + properties.freshReadTimeout().toNanos();
        while (true) {
            Optional<Long> lastSequence = eventStore.lastSequenceNumberFor(channelId);
            if (lastSequence.isEmpty()) {
                return Optional.empty();
            }
            Optional<ChannelBalance> row = balances.find(channelId);
            if (row.isPresent() && row.get().lastSequence() >= lastSequence.get()) {
                return row;
            }
            if (System.nanoTime() > deadline || progress.replaying()) {
                return Optional.ofNullable(fold(channelId));
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.ofNullable(fold(channelId));
            }
        }
    }

    long now() {
        return clock.instant().getEpochSecond();
    }

    /** The projection's transitions applied to the channel's events straight from the store. */
    private ChannelBalance fold(String channelId) {
        List<DomainEventMessage<?>> events = history.events(channelId);
        ChannelBalance balance = null;
        for (DomainEventMessage<?> message : events) {
            long sequence = message.getSequenceNumber();
            // the read model stores microseconds, as PostgreSQL does; the fold answers the same
            Instant at = message.getTimestamp().truncatedTo(ChronoUnit.MICROS);
            if (message.getPayload() instanceof ChannelEvent event) {
                balance = balance == null ? ChannelBalance.opened(event, sequence, at) : balance.apply(event, sequence, at);
            }
        }
        return balance;
    }
}
