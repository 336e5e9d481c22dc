package io.chanledger.api.ledger.readmodels;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The channel read models: {@code chan.read-models.*}.
 *
 * @param processor which kind of streaming processor builds them: {@code tracking} (default: a
 *        thread per segment reading batches of up to {@code batchSize} events) or {@code pooled}
 *        (Axon's pooled streaming processor, whose work queue of 1024 events and 100 ms back-off
 *        when full cap one segment near 10,000 events/s — see BENCHMARKS.md, Replay)
 * @param batchSize events per batch (one transaction, one read and a few writes of the touched rows)
 * @param batchLinger how old the first event of a tracking processor's batch is before the batch
 *        starts, so that the events committed right after it join the batch ({@code 0}: not at
 *        all; older events, a backlog, are read at once). 50 ms: each batch costs a transaction,
 *        a read of its rows and its token, whatever it holds, and with 10 ms a lone agent's
 *        requests made a batch each two or three (BENCHMARKS.md, "The paid request": read models that batch); a channel read
 *        right after a payment waits about this long for its balance
 * @param segments segments of the processor, shared out among instances; each holds its own token
 * @param atRiskWindow a channel with something to claim is at risk when its expiry is this close
 * @param freshReadTimeout how long a channel read waits for the read model to reach the channel's
 *        last event before it folds the events itself
 * @param rebuildRowsInMemory channel rows a replay's rebuild keeps in memory (the most recently
 *        touched); older ones are written while it goes on (about 1 KiB of heap each)
 * @param rebuildRowsPerWrite rows a rebuild writes per transaction
 * @param cachedEvents the most of the event store's newest events its reader keeps in memory (the
 *        ring of {@code EventTail}), which the processors that keep up read without a query of their
 *        own; one that falls further behind reads from the store until it catches up. An event
 *        leaves the ring once every open stream has taken it (under load, within about one batch
 *        linger of its commit: the processors trail the store by that, a few hundred events at the
 *        highest rates measured), or once this many newer ones came: this is how far a processor
 *        may fall behind and still read from memory (BENCHMARKS.md, "The paid request": the event ring). A cached
 *        event holds about 0.8 KiB of heap if this instance committed it (its payload, token and
 *        message), about 2 KiB if another instance did (its stored bytes and their wrappers as
 *        well). With Axon's default of 10,000, kept until newer ones came, the events lived seconds
 *        under load, long enough for the collector to copy them and move them to the old
 *        generation, and they filled a provider's heap (BENCHMARKS.md, "The paid request": the event ring)
 */
@ConfigurationProperties("chan.read-models")
public record ReadModelProperties(
        @DefaultValue("tracking") ProcessorKind processor,
        @DefaultValue("5000") int batchSize,
        @DefaultValue("50ms") Duration batchLinger,
        @DefaultValue("1") int segments,
        @DefaultValue("1h") Duration atRiskWindow,
        @DefaultValue("2s") Duration freshReadTimeout,
        @DefaultValue("10000") int rebuildRowsInMemory,
        @DefaultValue("10000") int rebuildRowsPerWrite,
        @DefaultValue("2000") int cachedEvents) {

    public enum ProcessorKind { TRACKING, POOLED }

    public ReadModelProperties {
        if (batchSize < 1 || segments < 1 || rebuildRowsInMemory < 1 || rebuildRowsPerWrite < 1 || cachedEvents < 1) {
            throw new IllegalArgumentException("chan.read-models.batch-size, .segments, .rebuild-rows-in-memory,"
                    + " .rebuild-rows-per-write and .cached-events must be at least 1");
        }
        if (batchLinger.isNegative() || batchLinger.compareTo(Duration.ofSeconds(1)) > 0) {
            throw new IllegalArgumentException("chan.read-models.batch-linger is between 0 and 1s");
        }
        if (atRiskWindow.isNegative() || freshReadTimeout.isNegative()) {
            throw new IllegalArgumentException("chan.read-models durations must not be negative");
        }
    }
}
