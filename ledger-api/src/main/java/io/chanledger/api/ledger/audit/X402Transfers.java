package io.chanledger.api.ledger.audit;

import io.chanledger.chain.abi.Eip3009Token;
import io.chanledger.chain.rpc.EthApi;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the chain shows a transaction did with the token: its receipt's {@code Transfer} logs of
 * the token, or empty when the chain has no receipt of it (never mined, or another chain).
 */
@FunctionalInterface
public interface X402Transfers {

    Optional<List<Eip3009Token.Transfer>> of(String transaction);

    /** The transfers of {@code token} as the node behind {@code eth} has them. */
    static X402Transfers onChain(EthApi eth, String token) {
        String tokenAddress = token.toLowerCase(Locale.ROOT);
        return transaction -> eth.receipt(transaction).map(receipt -> Eip3009Token.transfers(receipt, tokenAddress));
    }
}
