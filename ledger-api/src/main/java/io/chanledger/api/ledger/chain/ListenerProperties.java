package io.chanledger.api.ledger.chain;

import io.chanledger.api.config.ChainProperties;
import io.chanledger.chain.ingest.Finality;
import io.chanledger.chain.ingest.LagLimits;
import io.chanledger.chain.ingest.ListenerSettings;
import io.chanledger.chain.rpc.RetryPolicy;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.StringUtils;

/**
 * The chain listener: {@code chan.listener.*}. It runs when {@code chan.chain.rpc-url} is set and
 * {@code enabled} is true.
 *
 * @param finality         {@code finalized} (the node's finalized block) or {@code depth} (head minus {@code depth})
 * @param depth            blocks below the head that count as final in depth mode
 * @param pollInterval     pause between polls once caught up
 * @param maxBlockRange    most blocks per {@code eth_getLogs}; halved while the node refuses, grown back later
 * @param startBlock       first block to read when there is no checkpoint yet (the contract's deploy block)
 * @param maxLogsPerBatch  logs per database transaction, beyond which a range is cut at the next block
 *                         boundary (a block is never split). Small batches are cheaper per log: Axon
 *                         scans a unit of work's staged events on every aggregate load, so the cost
 *                         of a batch grows with the square of its size (BENCHMARKS.md, chain backfill)
 * @param id               checkpoint key; empty means {@code <chain id>:<contract>}
 * @param maxBackoff       longest pause between failing polls
 * @param failuresBeforeDown consecutive failed polls that turn the health indicator DOWN
 * @param lag              when the ledger's view counts as behind the chain's head, and for how long
 *                         that may last before the health indicator turns DOWN
 */
@ConfigurationProperties("chan.listener")
public record ListenerProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("finalized") Finality.Mode finality,
        @DefaultValue("64") int depth,
        @DefaultValue("2s") Duration pollInterval,
        @DefaultValue("1000") int maxBlockRange,
        @DefaultValue("0") long startBlock,
        @DefaultValue("100") int maxLogsPerBatch,
        String id,
        @DefaultValue("1m") Duration maxBackoff,
        @DefaultValue("5") int failuresBeforeDown,
        @DefaultValue Lag lag,
        @DefaultValue Rpc rpc,
        @DefaultValue Lookup lookup) {

    public ListenerProperties {
        if (finality == Finality.Mode.DEPTH && depth >= lag.maxBlocks()) {
            throw new IllegalArgumentException("chan.listener.lag.max-blocks (" + lag.maxBlocks() + ") must be above"
                    + " chan.listener.depth (" + depth + "): a listener reading " + depth
                    + " blocks below the head would always count as behind it");
        }
    }

    /**
     * The ledger's view of the chain (what the listener has recorded) is behind the head when it
     * trails it by more than {@code maxBlocks} blocks or {@code maxChainTime} of chain time (block
     * timestamps); both must be above the finality rule's normal lag. Behind for longer than
     * {@code grace}, the listener cannot advance: its health is DOWN. Meanwhile the watchtower plans
     * nothing from that view.
     */
    public record Lag(
            @DefaultValue("128") long maxBlocks,
            @DefaultValue("5m") Duration maxChainTime,
            @DefaultValue("2m") Duration grace) {

        public Lag {
            if (maxBlocks < 1 || maxChainTime.isNegative() || maxChainTime.isZero() || grace.isNegative()) {
                throw new IllegalArgumentException("chan.listener.lag needs max-blocks >= 1, a positive"
                        + " max-chain-time and a grace >= 0");
            }
        }

        public LagLimits limits() {
            return new LagLimits(maxBlocks, maxChainTime.toSeconds());
        }
    }

    /**
     * The listener's JSON-RPC transport: pauses between retries of transient failures, batch size.
     * Its timeout and attempts are the shared {@code chan.chain.rpc}.
     */
    public record Rpc(
            @DefaultValue("200ms") Duration initialBackoff,
            @DefaultValue("5s") Duration maxBackoff,
            @DefaultValue("0.5") double jitter,
            @DefaultValue("100") int maxBatchSize) {

        public RetryPolicy retryPolicy(int attempts) {
            return new RetryPolicy(attempts, initialBackoff, maxBackoff, 2.0, jitter);
        }
    }

    /**
     * {@code getChannel} look-ups of channels the ledger has not recorded, which vouchers for such
     * channels cause (each costs two node calls). Anyone can send those vouchers, so look-ups are
     * bounded: a "not on chain" answer is remembered for {@code notFoundTtl} (short, so that a
     * channel opened a moment later is found), and look-ups are taken from a token bucket per
     * client address ({@code perClient}) and from one for all clients together ({@code total}).
     * {@code clientIpHeader}: a header set by a trusted reverse proxy whose last entry is the
     * client address (empty: the connection's peer address).
     */
    public record Lookup(
            @DefaultValue("2s") Duration notFoundTtl,
            @DefaultValue("100000") int maxNotFound,
            String clientIpHeader,
            @DefaultValue PerClient perClient,
            @DefaultValue Total total,
            @DefaultValue("100000") int maxClients) {

        public Lookup {
            if (notFoundTtl.isNegative() || maxNotFound < 1 || maxClients < 1) {
                throw new IllegalArgumentException("chan.listener.lookup needs not-found-ttl >= 0,"
                        + " max-not-found >= 1 and max-clients >= 1");
            }
        }
    }

    /** Look-ups per client address: {@code capacity} at once, then one more every {@code refillInterval}. */
    public record PerClient(@DefaultValue("10") int capacity, @DefaultValue("6s") Duration refillInterval) {

        public PerClient {
            requirePositive(capacity, refillInterval, "per-client");
        }
    }

    /** Look-ups of all clients together: {@code capacity} at once, then one more every {@code refillInterval}. */
    public record Total(@DefaultValue("50") int capacity, @DefaultValue("200ms") Duration refillInterval) {

        public Total {
            requirePositive(capacity, refillInterval, "total");
        }
    }

    private static void requirePositive(int capacity, Duration refillInterval, String budget) {
        if (capacity < 1 || refillInterval.isNegative() || refillInterval.isZero()) {
            throw new IllegalArgumentException("chan.listener.lookup." + budget
                    + " needs capacity >= 1 and a positive refill-interval");
        }
    }

    /** The listener's checkpoint key: {@code id}, else {@code <chain id>:<contract>}. */
    public String listenerId(ChainProperties chain) {
        return StringUtils.hasText(id) ? id : ListenerSettings.defaultId(chain.chainId(), chain.channelContract());
    }

    public Finality finalityRule() {
        return finality == Finality.Mode.DEPTH ? Finality.depth(depth) : Finality.finalizedTag();
    }
}
