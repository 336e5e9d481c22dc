package io.chanledger.projections.rebuild;

/**
 * How much a bulk rebuild keeps in memory: the channel rows it folds in memory at most, and the
 * rows it writes in one transaction (see {@link io.chanledger.projections.channel.ChannelBalanceFold}).
 */
public record RebuildSettings(int rowsInMemory, int rowsPerWrite) {
}
