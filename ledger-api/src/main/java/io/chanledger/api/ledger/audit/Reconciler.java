package io.chanledger.api.ledger.audit;

import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.domain.channel.OnChainChannel;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Compares every channel the ledger holds open (or expired, not closed) with the contract at one
 * block: the channel must still exist there with the same terms and the same claimed amount, the
 * contract must still hold deposit − claimed for it, and the contract's balance of the token in
 * force (the chain reader's) must cover what it holds for all of them. A surplus is noted, not
 * counted as a mismatch: anyone can send tokens to the contract.
 */
public final class Reconciler {

    private final LedgerChannels ledger;
    private final String contract;

    public Reconciler(LedgerChannels ledger, String contract) {
        this.ledger = ledger;
        this.contract = contract;
    }

    public record Report(long block, long channelsCompared, List<Finding> mismatches, List<String> notes) {
        public boolean clean() {
            return mismatches.isEmpty();
        }
    }

    /** Compares the channels in {@code only}, or all of them when it is empty. */
    public Report reconcile(ChainReader chain, Collection<String> only) {
        List<Finding> mismatches = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        BigInteger[] held = {BigInteger.ZERO};
        long[] compared = {0};
        ledger.forEach(only, state -> {
            if (state.status() == ChannelStatus.CLOSED) {
                return;
            }
            compared[0]++;
            compare(state, chain, mismatches, held);
        });
        BigInteger balance = chain.tokenBalance(contract);
        if (balance.compareTo(held[0]) < 0) {
            mismatches.add(new Finding(0, 0, null, "token_balance_short", "the contract holds " + balance
                    + " USDC base units, less than the " + held[0] + " it owes to the channels compared"));
        } else if (balance.compareTo(held[0]) > 0) {
            notes.add("the contract holds " + balance.subtract(held[0]) + " USDC base units more than the channels"
                    + " compared account for (" + balance + " against " + held[0] + ")");
        }
        return new Report(chain.block(), compared[0], mismatches, notes);
    }

    private static void compare(ChannelState ledger, ChainReader chain, List<Finding> mismatches, BigInteger[] held) {
        String id = ledger.channelId();
        OnChainChannel onChain = chain.channel(id);
        if (!onChain.exists()) {
            mismatches.add(new Finding(0, 0, id, "missing_on_chain", "the ledger holds the channel "
                    + ledger.status().code() + ", the contract has no such channel (closed, or never opened)"));
            return;
        }
        List<String> differences = new ArrayList<>();
        differ(differences, "consumer", ledger.consumer(), onChain.consumer());
        differ(differences, "provider", ledger.provider(), onChain.provider());
        differ(differences, "deposit", ledger.deposit(), onChain.deposit());
        differ(differences, "expiry", ledger.expiry(), onChain.expiry());
        if (!differences.isEmpty()) {
            mismatches.add(new Finding(0, 0, id, "terms_differ", String.join("; ", differences)));
        }
        if (!ledger.claimed().equals(onChain.claimed())) {
            mismatches.add(new Finding(0, 0, id, "claimed_differs", "ledger " + ledger.claimed() + ", contract "
                    + onChain.claimed()));
        }
        BigInteger balance = chain.channelBalance(id);
        BigInteger expected = ledger.deposit().subtract(ledger.claimed());
        if (!balance.equals(expected)) {
            mismatches.add(new Finding(0, 0, id, "balance_differs", "the contract holds " + balance
                    + " for the channel; the ledger expects deposit − claimed = " + expected));
        }
        held[0] = held[0].add(balance);
    }

    private static void differ(List<String> differences, String field, Object ledger, Object chain) {
        if (!ledger.equals(chain)) {
            differences.add(field + ": ledger " + ledger + ", contract " + chain);
        }
    }
}
