package io.chanledger.chain.ingest;

import io.chanledger.domain.channel.CloseKind;
import io.chanledger.domain.channel.ExpireChannel;
import io.chanledger.domain.channel.OpenChannel;
import io.chanledger.domain.channel.RecordClaim;
import io.chanledger.domain.channel.RecordClose;
import io.chanledger.domain.contract.RecordFeeUpdate;
import io.chanledger.domain.contract.RecordUsdcUpdate;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns the decoded logs of a block range into commands, in chain order, deterministically.
 *
 * <p>Expiry is judged by block time: before the logs of each block and once more after them, every
 * watched channel whose expiry is at or below that block's timestamp is expired, so a channel's
 * {@code ChannelExpired} always precedes a close in a later or the same block, whatever the
 * range boundaries. After the last log, channels due by the range's end block are expired too.
 *
 * <p>A {@code FeePaid} belongs to the {@code ChannelClaimed} of the same transaction and channel
 * that follows it. A close is cooperative when that transaction also claimed for the channel
 * ({@code close} never claims), or when the channel had not expired yet ({@code close} reverts
 * before expiry). Only a close after expiry without a claim is ambiguous: then the transaction's
 * function selector decides, and the step is left pending.
 *
 * <p>Changes of the contract's fee and token are recorded in their place among the channel logs,
 * so that every claim in the event store follows the fee change it was made under.
 */
public final class RangePlanner {

    private record Due(long expiry, String channelId) {
    }

    private static final Comparator<Due> ORDER = Comparator.comparingLong(Due::expiry).thenComparing(Due::channelId);

    private final String contractId;
    private final Map<String, Long> watched = new HashMap<>();
    private final TreeSet<Due> byExpiry = new TreeSet<>(ORDER);
    private final List<RangePlan.Step> steps = new ArrayList<>();
    private final List<ExpiryChange> changes = new ArrayList<>();
    private final Map<String, BigInteger> pendingFees = new HashMap<>();
    private final Set<String> claimedInTransaction = new HashSet<>();

    private RangePlanner(String contractId, Map<String, Long> trackedExpiries) {
        this.contractId = contractId;
        trackedExpiries.forEach(this::watch);
    }

    /**
     * @param contractId      the contract's settings aggregate ({@code ContractSettings.idOf})
     * @param logs            the range's recorded logs, in chain order
     * @param blockTimestamps timestamps of every block holding one of the logs
     * @param trackedExpiries the expiry table's rows that matter to this range: those due by
     *                        {@code endTimestamp} and those of channels the range closes
     */
    public static RangePlan plan(String contractId, List<? extends DecodedLog.Recorded> logs,
                                 Map<Long, Long> blockTimestamps, Map<String, Long> trackedExpiries, long endBlock,
                                 long endTimestamp) {
        RangePlanner planner = new RangePlanner(contractId, trackedExpiries);
        long currentBlock = -1;
        for (DecodedLog.Recorded log : logs) {
            long block = log.chainRef().blockNumber();
            if (block != currentBlock) {
                if (currentBlock >= 0) {
                    planner.expireDue(currentBlock, timestamp(blockTimestamps, currentBlock));
                }
                currentBlock = block;
                planner.expireDue(block, timestamp(blockTimestamps, block));
            }
            planner.apply(log);
        }
        if (currentBlock >= 0) {
            planner.expireDue(currentBlock, timestamp(blockTimestamps, currentBlock));
        }
        planner.expireDue(endBlock, endTimestamp);
        return new RangePlan(List.copyOf(planner.steps), List.copyOf(planner.changes), logs.size());
    }

    /**
     * Cuts a range's logs (in chain order) into batches of whole blocks holding at most
     * {@code maxLogs} logs each; a block with more logs than that is a batch of its own. Always at
     * least one batch, empty when there are no logs.
     */
    public static <L extends DecodedLog.Recorded> List<List<L>> cutAtBlocks(List<L> logs, int maxLogs) {
        List<List<L>> batches = new ArrayList<>();
        List<L> current = new ArrayList<>();
        int i = 0;
        while (i < logs.size()) {
            long block = logs.get(i).chainRef().blockNumber();
            int end = i;
            while (end < logs.size() && logs.get(end).chainRef().blockNumber() == block) {
                end++;
            }
            if (!current.isEmpty() && current.size() + (end - i) > maxLogs) {
                batches.add(current);
                current = new ArrayList<>();
            }
            current.addAll(logs.subList(i, end));
            i = end;
        }
        batches.add(current);
        return batches;
    }

    private void apply(DecodedLog.Recorded log) {
        switch (log) {
            case ChannelLog.Opened opened -> {
                steps.add(new RangePlan.Send(new OpenChannel(opened.channelId(), opened.consumer(), opened.provider(),
                        opened.deposit(), opened.expirySeconds(), opened.chainRef())));
                watch(opened.channelId(), opened.expirySeconds());
                changes.add(new ExpiryChange.Track(opened.channelId(), opened.expirySeconds()));
            }
            case ChannelLog.FeePaid fee -> pendingFees.merge(key(fee), fee.amount(), BigInteger::add);
            case ChannelLog.Claimed claimed -> {
                BigInteger fee = pendingFees.remove(key(claimed));
                claimedInTransaction.add(key(claimed));
                steps.add(new RangePlan.Send(new RecordClaim(claimed.channelId(), claimed.amount(),
                        fee == null ? BigInteger.ZERO : fee, claimed.chainRef())));
            }
            case ChannelLog.Closed closed -> {
                boolean stillOpen = unwatch(closed.channelId());
                if (stillOpen || claimedInTransaction.contains(key(closed))) {
                    steps.add(new RangePlan.Send(new RecordClose(closed.channelId(), closed.refund(),
                            CloseKind.COOPERATIVE, closed.chainRef())));
                } else {
                    steps.add(new RangePlan.PendingClose(closed.channelId(), closed.refund(), closed.chainRef()));
                }
            }
            case ContractLog.FeeUpdated fee -> steps.add(new RangePlan.Send(
                    new RecordFeeUpdate(contractId, fee.feeRecipient(), fee.feeBps(), fee.chainRef())));
            case ContractLog.UsdcUpdated usdc -> steps.add(new RangePlan.Send(
                    new RecordUsdcUpdate(contractId, usdc.previousUsdc(), usdc.usdc(), usdc.chainRef())));
        }
    }

    private void expireDue(long block, long timestamp) {
        while (!byExpiry.isEmpty() && byExpiry.first().expiry() <= timestamp) {
            Due due = byExpiry.pollFirst();
            watched.remove(due.channelId());
            steps.add(new RangePlan.Send(new ExpireChannel(due.channelId(), timestamp, block)));
            changes.add(new ExpiryChange.Untrack(due.channelId()));
        }
    }

    private void watch(String channelId, long expiry) {
        Long previous = watched.put(channelId, expiry);
        if (previous != null) {
            byExpiry.remove(new Due(previous, channelId));
        }
        byExpiry.add(new Due(expiry, channelId));
    }

    /** Stops watching a closed channel; true when it was still watched, that is, not expired. */
    private boolean unwatch(String channelId) {
        Long expiry = watched.remove(channelId);
        if (expiry == null) {
            return false;
        }
        byExpiry.remove(new Due(expiry, channelId));
        changes.add(new ExpiryChange.Untrack(channelId));
        return true;
    }

    private static String key(ChannelLog log) {
        return log.chainRef().txHash() + "/" + log.channelId();
    }

    private static long timestamp(Map<Long, Long> timestamps, long block) {
        Long timestamp = timestamps.get(block);
        if (timestamp == null) {
            throw new IllegalArgumentException("no timestamp for block " + block);
        }
        return timestamp;
    }
}
