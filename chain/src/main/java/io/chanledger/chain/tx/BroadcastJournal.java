package io.chanledger.chain.tx;

import java.math.BigInteger;

/**
 * Told about a signed transaction before it is handed to the node. A sender whose transaction
 * must never be sent twice (a token transfer: unlike a claim, the contract would not refuse the
 * second) writes it down durably here, so that after a crash it looks after that transaction,
 * rebroadcasting the same bytes with the same nonce, rather than signing a new one.
 */
@FunctionalInterface
public interface BroadcastJournal {

    BroadcastJournal NONE = (txHash, nonce, rawTransaction) -> { };

    void signed(String txHash, BigInteger nonce, String rawTransaction);
}
