package io.chanledger.api.ledger.chain;

import io.chanledger.chain.ingest.ListenerStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.ToDoubleFunction;

/** Publishes the listener's counters and positions as {@code chan.listener.*} meters. */
class ListenerMeters implements MeterBinder {

    private final ListenerStats stats;

    ListenerMeters(ListenerStats stats) {
        this.stats = stats;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        gauge(registry, "chan.listener.finalized.block", "the latest final block seen", ListenerStats::finalizedBlock);
        gauge(registry, "chan.listener.checkpoint.block", "the last block fully ingested", ListenerStats::checkpointBlock);
        gauge(registry, "chan.listener.lag.blocks", "final blocks not ingested yet", ListenerStats::lagBlocks);
        gauge(registry, "chan.listener.head.block", "the chain's head at the last poll", ListenerStats::headBlock);
        gauge(registry, "chan.listener.behind.blocks", "blocks between the checkpoint and the head",
                ListenerStats::blocksBehind);
        gauge(registry, "chan.listener.behind.seconds", "chain time between the checkpoint block and the head",
                ListenerStats::secondsBehind);
        gauge(registry, "chan.listener.consecutive.failures", "failed polls in a row", ListenerStats::consecutiveFailures);
        Gauge.builder("chan.listener.halted", stats, s -> s.state() == ListenerStats.State.HALTED ? 1 : 0)
                .description("1 when the listener stopped on a reorganisation, a wrong chain or a conflicting fact")
                .register(registry);
        counter(registry, "chan.listener.polls", "polls started", ListenerStats::polls);
        counter(registry, "chan.listener.polls.failed", "polls that failed", ListenerStats::failedPolls);
        counter(registry, "chan.listener.rpc.failures", "failed JSON-RPC requests, retried or not", ListenerStats::rpcFailures);
        counter(registry, "chan.listener.rpc.requests", "JSON-RPC requests sent", s -> s.rpc().requests());
        counter(registry, "chan.listener.logs.ingested", "channel logs recorded", ListenerStats::logsIngested);
        counter(registry, "chan.listener.unknown.topics", "logs of the contract with an unknown topic, skipped",
                ListenerStats::unknownTopics);
        counter(registry, "chan.listener.batches", "block batches committed", ListenerStats::batches);
        counter(registry, "chan.listener.range.shrinks", "times the node refused a block range as too large",
                ListenerStats::rangeShrinks);
    }

    private void gauge(MeterRegistry registry, String name, String description, ToDoubleFunction<ListenerStats> value) {
        Gauge.builder(name, stats, value).description(description).register(registry);
    }

    private void counter(MeterRegistry registry, String name, String description, ToDoubleFunction<ListenerStats> value) {
        FunctionCounter.builder(name, stats, value).description(description).register(registry);
    }
}
