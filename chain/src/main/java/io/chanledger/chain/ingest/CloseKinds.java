package io.chanledger.chain.ingest;

import io.chanledger.chain.abi.ChannelContract;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.RpcException;
import io.chanledger.domain.channel.CloseKind;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.web3j.protocol.core.methods.response.Transaction;

/**
 * How channels closed, read from the function selector of the closing transactions: used for the
 * closes the logs alone cannot classify (after expiry, without a claim in the same transaction).
 */
final class CloseKinds {

    private static final Logger log = LoggerFactory.getLogger(CloseKinds.class);

    private final EthApi eth;

    CloseKinds(EthApi eth) {
        this.eth = eth;
    }

    Map<String, CloseKind> of(Set<String> transactionHashes) {
        Map<String, CloseKind> kinds = new HashMap<>();
        if (transactionHashes.isEmpty()) {
            return kinds;
        }
        eth.transactions(transactionHashes).forEach((hash, transaction) -> {
            String input = transaction.map(Transaction::getInput).orElseThrow(() -> RpcException.transientFailure(
                    "eth_getTransactionByHash", "the node does not know transaction " + hash, null));
            String selector = input.length() >= 10 ? input.substring(0, 10).toLowerCase(Locale.ROOT) : input;
            if (ChannelContract.COOPERATIVE_CLOSE_SELECTOR.equals(selector)) {
                kinds.put(hash, CloseKind.COOPERATIVE);
                return;
            }
            if (!ChannelContract.CLOSE_SELECTOR.equals(selector)) {
                // Called through another contract: after expiry, close and a cooperative close
                // without payout move the same money, so only the kind's name is a guess.
                log.warn("transaction {} closed a channel through another contract (selector {}); "
                        + "recording it as closed after expiry", hash, selector);
            }
            kinds.put(hash, CloseKind.AFTER_EXPIRY);
        });
        return kinds;
    }
}
