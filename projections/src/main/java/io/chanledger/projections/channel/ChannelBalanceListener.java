package io.chanledger.projections.channel;

import io.chanledger.projections.readmodel.RowBatch;
import java.util.List;

/**
 * A read model derived from channel balances, kept in the same transaction as them: it is told
 * every balance a batch of events changed (before and after) just before the batch commits.
 */
public interface ChannelBalanceListener {

    void balancesChanged(List<RowBatch.Change<ChannelBalance>> changes);

    /** The channel read models are being rebuilt: forget everything. */
    void reset();
}
