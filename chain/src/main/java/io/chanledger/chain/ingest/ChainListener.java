package io.chanledger.chain.ingest;

import io.chanledger.chain.lookup.ContractSigningDomain;
import io.chanledger.chain.rpc.BlockHeader;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.RpcException;
import io.chanledger.domain.channel.ChainFactConflictException;
import io.chanledger.domain.contract.ContractSettings;
import io.chanledger.domain.eip712.Eip712Domain;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.web3j.protocol.core.methods.response.Log;

/**
 * Follows the channel contract's logs up to the final block and records them in the ledger.
 *
 * <p>Each {@link #poll} checks (once) that the node serves the configured chain and that the
 * contract verifies signatures in the ledger's EIP-712 domain, finds the final
 * block, checks that the checkpoint's block is still the chain's, and ingests the blocks after it
 * in bounded ranges. A range's logs are decoded, planned into commands (see {@link RangePlanner})
 * and committed together with the new checkpoint (see {@link BatchCommitter}). The checkpoint is
 * read from the store at each poll and only moves with a commit, so a failed range is simply read
 * again, and two instances sharing a listener id cannot both record a range. A node that
 * refuses a range as too large gets half of it, and the range grows back after a few successes.
 *
 * <p>Each poll also reads the chain's head, and judges what the ledger has recorded against it
 * ({@link ListenerStats#behindSince()}): a final block that stays far below the head (a node whose
 * finalized block does not move, as on a local devnet) keeps the ledger blind however well the
 * polls go. Falling behind and catching up are logged once each.
 *
 * <p>Four things stop the listener for good, since continuing could record wrong facts: a chain
 * id other than the configured one, a contract of another signing domain, a reorganisation of
 * blocks it has already ingested, and a chain fact the ledger contradicts.
 */
public final class ChainListener {

    private static final Logger log = LoggerFactory.getLogger(ChainListener.class);
    private static final int GROW_AFTER_SUCCESSES = 4;

    private final ListenerSettings settings;
    private final EthApi eth;
    private final ListenerStore store;
    private final BatchCommitter committer;
    private final ListenerStats stats;
    private final CloseKinds closeKinds;
    private final String contractId;
    private volatile ListenerHaltedException halted;
    private boolean chainVerified;
    private Checkpoint checkpoint;
    /** The chain's head as this poll read it. */
    private BlockHeader head;
    /** Whether falling behind was logged, so that it and the catching up are logged once each. */
    private boolean loggedBehind;
    private int range;
    private int rangeSuccesses;

    public ChainListener(ListenerSettings settings, EthApi eth, ListenerStore store, BatchCommitter committer) {
        this.settings = settings;
        this.eth = eth;
        this.store = store;
        this.committer = committer;
        this.stats = new ListenerStats(eth.client().counters(), settings.lagLimits(), settings.startBlock());
        this.closeKinds = new CloseKinds(eth);
        this.contractId = ContractSettings.idOf(settings.chainId(), settings.contract());
        this.range = settings.maxBlockRange();
    }

    public ListenerStats stats() {
        return stats;
    }

    public ListenerSettings settings() {
        return settings;
    }

    /** Ingests every final block not ingested yet, for as long as {@code keepGoing} says so. */
    public synchronized void poll(BooleanSupplier keepGoing) {
        if (halted != null) {
            throw halted;
        }
        stats.pollStarted();
        try {
            pollOnce(keepGoing);
            stats.pollSucceeded();
        } catch (ListenerHaltedException e) {
            throw e;
        } catch (RuntimeException e) {
            stats.pollFailed(e.getMessage());
            throw e;
        }
    }

    /** Ingests until caught up. */
    public void poll() {
        poll(() -> true);
    }

    private void pollOnce(BooleanSupplier keepGoing) {
        if (!chainVerified) {
            verifyChain();
        }
        // read afresh each poll: another instance with the same id may have moved it
        checkpoint = store.checkpoint(settings.listenerId()).orElse(null);
        stats.checkpoint(checkpoint == null ? settings.startBlock() - 1 : checkpoint.blockNumber());
        BlockHeader target = finalBlockAndHead();
        stats.finalizedBlock(target.number());
        stats.running();
        if (checkpoint != null && target.number() <= checkpoint.blockNumber()) {
            verifyCheckpointOnChain();
            judgeLag(target);
            return;
        }
        long next = checkpoint == null ? settings.startBlock() : checkpoint.blockNumber() + 1;
        while (next <= target.number() && keepGoing.getAsBoolean()) {
            long to = Math.min(target.number(), next + range - 1);
            List<Log> logs;
            try {
                logs = eth.logs(settings.contract(), next, to);
            } catch (RpcException e) {
                if (range == 1 || e.kind() == RpcException.Kind.PERMANENT) {
                    throw e;
                }
                // a refused range is retried at once, smaller; a range that keeps timing out is
                // retried smaller by the next poll, since its size may be what the node chokes on
                range = Math.max(1, range / 2);
                rangeSuccesses = 0;
                stats.rangeShrunk();
                if (e.kind() == RpcException.Kind.TRANSIENT) {
                    throw e;
                }
                log.info("the node refused blocks {}..{} as too many at once; reading {} blocks at a time", next, to, range);
                continue;
            }
            ingest(next, to, logs);
            next = checkpoint.blockNumber() + 1;
            if (++rangeSuccesses >= GROW_AFTER_SUCCESSES && range < settings.maxBlockRange()) {
                range = Math.min(settings.maxBlockRange(), range * 2);
                rangeSuccesses = 0;
            }
        }
        judgeLag(target);
    }

    private void verifyChain() {
        long nodeChainId = eth.chainId();
        if (nodeChainId != settings.chainId()) {
            throw halt(ListenerStats.HaltReason.CHAIN_ID_MISMATCH, "the node at " + eth.client().endpointName()
                    + " serves chain " + nodeChainId + ", but the ledger follows chain " + settings.chainId());
        }
        try {
            ContractSigningDomain.verify(eth, Eip712Domain.chan(settings.chainId(), settings.contract()));
        } catch (ContractSigningDomain.MismatchException e) {
            throw halt(ListenerStats.HaltReason.SIGNING_DOMAIN_MISMATCH, e.getMessage());
        }
        chainVerified = true;
        log.info("following contract {} on chain {} via {}, final blocks: {}", settings.contract(), nodeChainId,
                eth.client().endpointName(), settings.finality());
    }

    /** The final block, by the finality rule; reads the chain's head into {@link #head} on the way. */
    private BlockHeader finalBlockAndHead() {
        if (settings.finality().mode() == Finality.Mode.FINALIZED) {
            BlockHeader finalized = eth.block("finalized").orElseThrow(() ->
                    RpcException.transientFailure("eth_getBlockByNumber", "the node names no finalized block", null));
            head = latestBlock();
            return finalized;
        }
        head = latestBlock();
        long target = head.number() - settings.finality().depth();
        if (target < 0) {
            return new BlockHeader(-1, null, null, 0, null);
        }
        if (target == head.number()) {
            return head;
        }
        return eth.block(target).orElseThrow(() ->
                RpcException.transientFailure("eth_getBlockByNumber", "the node has no block " + target, null));
    }

    private BlockHeader latestBlock() {
        return eth.block("latest").orElseThrow(() ->
                RpcException.transientFailure("eth_getBlockByNumber", "the node names no latest block", null));
    }

    /**
     * Judges the ledger's view against the head at the end of a poll. With nothing recorded yet
     * because the final block is still before the start block, the view reaches the final block:
     * there was nothing to record up to it.
     */
    private void judgeLag(BlockHeader target) {
        Checkpoint view = checkpoint;
        if (view == null && target.number() >= 0 && target.number() < settings.startBlock()) {
            view = new Checkpoint(target.number(), target.hash(), target.timestamp());
        }
        stats.lag(head, view);
        if (stats.behind() && !loggedBehind) {
            loggedBehind = true;
            log.warn("the ledger's view of the chain is {} blocks ({} s of chain time) behind the head, block {}: the"
                    + " final block ({}) is block {}, the checkpoint block {}", stats.blocksBehind(),
                    stats.secondsBehind(), head.number(), settings.finality(), target.number(), stats.checkpointBlock());
        } else if (loggedBehind && !stats.behind()) {
            loggedBehind = false;
            log.info("the ledger's view of the chain caught up with the head: checkpoint at block {}, head block {}",
                    stats.checkpointBlock(), head.number());
        }
    }

    private void verifyCheckpointOnChain() {
        Optional<BlockHeader> onChain = eth.block(checkpoint.blockNumber());
        if (onChain.isEmpty() || !onChain.get().hash().equals(checkpoint.blockHash())) {
            throw halt(ListenerStats.HaltReason.REORG, "block " + checkpoint.blockNumber() + " was "
                    + checkpoint.blockHash() + " when ingested and is now "
                    + onChain.map(BlockHeader::hash).orElse("gone") + ": a reorganisation below the finality line ("
                    + settings.finality() + ")");
        }
    }

    private void ingest(long from, long to, List<Log> logs) {
        List<DecodedLog.Recorded> recorded = new ArrayList<>();
        List<DecodedLog.Skipped> skippedLogs = new ArrayList<>();
        List<Long> skippedBlocks = new ArrayList<>();
        for (Log raw : logs) {
            checkLogBelongs(raw, from, to);
            DecodedLog decoded;
            try {
                decoded = ChannelLogDecoder.decode(raw);
            } catch (ChannelLogDecoder.MalformedLogException e) {
                throw RpcException.transientFailure("eth_getLogs", "malformed answer: " + e.getMessage(), e);
            }
            switch (decoded) {
                case DecodedLog.Recorded fact -> recorded.add(fact);
                case DecodedLog.Skipped skipped -> {
                    skippedLogs.add(skipped);
                    skippedBlocks.add(raw.getBlockNumber().longValueExact());
                    if (!skipped.admin()) {
                        log.debug("skipping a log with unknown topic {} in block {}", skipped.topic0(), raw.getBlockNumberRaw());
                    }
                }
            }
        }
        recorded.sort(Comparator.comparingLong((DecodedLog.Recorded l) -> l.chainRef().blockNumber())
                .thenComparingInt(l -> l.chainRef().logIndex()));
        List<List<DecodedLog.Recorded>> segments = RangePlanner.cutAtBlocks(recorded, settings.maxLogsPerBatch());
        TreeSet<Long> wanted = new TreeSet<>(List.of(from, to));
        recorded.forEach(l -> wanted.add(l.chainRef().blockNumber()));
        Map<Long, BlockHeader> headers = eth.blocks(wanted);
        for (DecodedLog.Recorded l : recorded) {
            if (!headers.get(l.chainRef().blockNumber()).hash().equals(l.chainRef().blockHash())) {
                throw RpcException.transientFailure("eth_getLogs", "the node's view changed while reading blocks "
                        + from + ".." + to + " (log block hash differs from the block's)", null);
            }
        }
        if (checkpoint != null && checkpoint.blockNumber() == from - 1
                && !headers.get(from).parentHash().equals(checkpoint.blockHash())) {
            throw halt(ListenerStats.HaltReason.REORG, "block " + from + " follows " + headers.get(from).parentHash()
                    + ", not the ingested block " + checkpoint.blockNumber() + " (" + checkpoint.blockHash()
                    + "): a reorganisation below the finality line (" + settings.finality() + ")");
        }
        Map<Long, Long> timestamps = new HashMap<>();
        headers.forEach((number, header) -> timestamps.put(number, header.timestamp()));
        for (int i = 0; i < segments.size(); i++) {
            List<DecodedLog.Recorded> segment = segments.get(i);
            long end = i == segments.size() - 1 ? to : segment.getLast().chainRef().blockNumber();
            long start = checkpoint == null ? from : checkpoint.blockNumber() + 1;
            commitSegment(start, segment, headers.get(end), timestamps);
            countSkipped(skippedLogs, skippedBlocks, start, end);
        }
    }

    /** Counts the skipped logs of blocks start..end once their batch is committed, so retries do not recount. */
    private void countSkipped(List<DecodedLog.Skipped> skipped, List<Long> blocks, long start, long end) {
        long unknown = 0;
        long admin = 0;
        for (int i = 0; i < skipped.size(); i++) {
            if (blocks.get(i) >= start && blocks.get(i) <= end) {
                if (skipped.get(i).admin()) {
                    admin++;
                } else {
                    unknown++;
                }
            }
        }
        stats.skipped(unknown, admin);
    }

    private void commitSegment(long start, List<DecodedLog.Recorded> segment, BlockHeader end,
                               Map<Long, Long> timestamps) {
        stats.batchStarted();
        List<String> closing = segment.stream().filter(l -> l instanceof ChannelLog.Closed)
                .map(l -> ((ChannelLog.Closed) l).channelId()).toList();
        Map<String, Long> tracked = store.expiries(settings.listenerId(), end.timestamp(), closing);
        RangePlan plan = RangePlanner.plan(contractId, segment, timestamps, tracked, end.number(), end.timestamp());
        List<Object> commands = plan.commands(closeKinds.of(plan.transactionsToInspect()));
        Checkpoint next = new Checkpoint(end.number(), end.hash(), end.timestamp());
        try {
            committer.commit(new IngestedRange(settings.listenerId(), start, end.number()), commands,
                    plan.expiryChanges(), checkpoint, next);
        } catch (ChainFactConflictException e) {
            throw halt(ListenerStats.HaltReason.CHAIN_FACT_CONFLICT, "blocks " + start + ".." + end.number() + ": "
                    + e.getMessage());
        }
        checkpoint = next;
        stats.checkpoint(next.blockNumber());
        stats.lag(head, next);
        stats.batchCommitted(plan.recordedLogs());
    }

    private void checkLogBelongs(Log raw, long from, long to) {
        if (raw.isRemoved()) {
            throw RpcException.transientFailure("eth_getLogs", "the node reports a removed log in final blocks "
                    + from + ".." + to, null);
        }
        long block;
        try {
            block = raw.getBlockNumber().longValueExact();
        } catch (RuntimeException e) {
            throw RpcException.transientFailure("eth_getLogs", "malformed answer: a log without block number", e);
        }
        if (block < from || block > to || raw.getAddress() == null || !raw.getAddress().equalsIgnoreCase(settings.contract())) {
            throw RpcException.transientFailure("eth_getLogs", "malformed answer: a log outside the requested filter", null);
        }
    }

    private ListenerHaltedException halt(ListenerStats.HaltReason reason, String detail) {
        log.error("Chain listener halted ({}): {}. Nothing after block {} is recorded until an operator steps in.",
                reason, detail, checkpoint == null ? "(none)" : checkpoint.blockNumber());
        stats.halted(reason, detail);
        halted = new ListenerHaltedException(reason, detail);
        return halted;
    }
}
