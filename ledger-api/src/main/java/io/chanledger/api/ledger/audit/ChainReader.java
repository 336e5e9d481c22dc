package io.chanledger.api.ledger.audit;

import io.chanledger.domain.channel.OnChainChannel;
import java.math.BigInteger;

/**
 * What reconciliation reads from the chain, all at one block: the channel contract's
 * {@code getChannel} and {@code getBalance}, and the USDC balance of an account.
 */
public interface ChainReader {

    /** The block every read is made at. */
    long block();

    /** The contract's view of a channel at {@link #block()}: all zero once closed (deleted) or never opened. */
    OnChainChannel channel(String channelId);

    /** What the contract still holds for a channel (deposit − claimed). */
    BigInteger channelBalance(String channelId);

    /** USDC held by {@code account}. */
    BigInteger tokenBalance(String account);
}
