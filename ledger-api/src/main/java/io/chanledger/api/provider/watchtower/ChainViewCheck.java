package io.chanledger.api.provider.watchtower;

import io.chanledger.chain.ingest.Checkpoint;
import io.chanledger.chain.ingest.LagLimits;
import io.chanledger.chain.ingest.ListenerStore;
import io.chanledger.chain.rpc.BlockHeader;
import java.util.Optional;

/**
 * What the watchtower asks before each round: is the ledger's view of the chain current as of the
 * head the round plans with? The view is the chain listener's checkpoint, which every instance
 * shares through the database, judged by the listener's own lag limits ({@code chan.listener.lag}):
 * the watchtower waits exactly while the listener's health counts it behind the head (its grace
 * aside). A claim planned from a view behind the chain may be for a channel already closed, which
 * the contract refuses for good, or take a voucher that a close has since settled.
 */
final class ChainViewCheck {

    private final ListenerStore store;
    private final String listenerId;
    private final LagLimits limits;
    private final long startBlock;

    ChainViewCheck(ListenerStore store, String listenerId, LagLimits limits, long startBlock) {
        this.store = store;
        this.listenerId = listenerId;
        this.limits = limits;
        this.startBlock = startBlock;
    }

    /** Empty when the view is current as of {@code head}; otherwise how far behind it is, in words. */
    Optional<String> behind(BlockHeader head) {
        Checkpoint view = store.checkpoint(listenerId).orElse(null);
        if (!limits.behind(head.number(), head.timestamp(), view, startBlock)) {
            return Optional.empty();
        }
        return Optional.of(view == null ? "the ledger has recorded no block of the chain yet (head: block "
                + head.number() + ")" : "the ledger has recorded the chain up to block " + view.blockNumber() + ", "
                + (head.number() - view.blockNumber()) + " blocks and " + (head.timestamp() - view.blockTimestamp())
                + " s of chain time behind the head (block " + head.number() + ")");
    }
}
