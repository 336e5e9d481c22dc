package io.chanledger.chain.ingest;

import io.chanledger.domain.chain.ChainRef;
import io.chanledger.domain.channel.CloseKind;
import io.chanledger.domain.channel.RecordClose;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one block range does to the ledger, in chain order: the commands to send and the changes to
 * the expiry table, from {@code recordedLogs} logs. A close whose kind the logs cannot tell is left
 * pending until the transaction's function selector has been read.
 */
public record RangePlan(List<Step> steps, List<ExpiryChange> expiryChanges, int recordedLogs) {

    public sealed interface Step {
    }

    /** A command ready to be sent. */
    record Send(Object command) implements Step {
    }

    /** A {@code ChannelClosed} after the channel's expiry, without a claim in the same transaction. */
    record PendingClose(String channelId, BigInteger refund, ChainRef chainRef) implements Step {
    }

    /** Transactions whose function selector decides how a channel closed. */
    public Set<String> transactionsToInspect() {
        Set<String> hashes = new LinkedHashSet<>();
        steps.forEach(step -> {
            if (step instanceof PendingClose close) {
                hashes.add(close.chainRef().txHash());
            }
        });
        return hashes;
    }

    /** The commands in order, pending closes completed with the kinds read from their transactions. */
    public List<Object> commands(Map<String, CloseKind> closeKindsByTransaction) {
        List<Object> commands = new ArrayList<>(steps.size());
        for (Step step : steps) {
            switch (step) {
                case Send send -> commands.add(send.command());
                case PendingClose close -> {
                    CloseKind kind = closeKindsByTransaction.get(close.chainRef().txHash());
                    if (kind == null) {
                        throw new IllegalStateException("no close kind for transaction " + close.chainRef().txHash());
                    }
                    commands.add(new RecordClose(close.channelId(), close.refund(), kind, close.chainRef()));
                }
            }
        }
        return commands;
    }
}
