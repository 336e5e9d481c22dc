package io.chanledger.projections.provideraccount;

import io.chanledger.projections.channel.ChannelBalance;
import io.chanledger.projections.channel.ChannelBalanceListener;
import io.chanledger.projections.readmodel.RowBatch;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * Keeps the provider accounts: for every channel balance a batch changed, what the channel
 * contributed to its provider before is taken off and what it contributes now is added (a
 * confirmation naming another provider moves the channel; an account left without channels is
 * removed). Written in the same transaction as the balances, so an account always equals the sum
 * of its provider's channels, however the changes were batched: a rebuild that writes each row
 * once gives the accounts the processor gave. Last activity is the latest of the provider's
 * channel rows as written.
 */
@Component
public class ProviderAccounts implements ChannelBalanceListener {

    private final ProviderAccountRepository repository;

    public ProviderAccounts(ProviderAccountRepository repository) {
        this.repository = repository;
    }

    @Override
    public void balancesChanged(List<RowBatch.Change<ChannelBalance>> changes) {
        Map<String, Totals> deltas = new HashMap<>();
        Map<String, Instant> lastActivity = new HashMap<>();
        for (RowBatch.Change<ChannelBalance> change : changes) {
            ChannelBalance before = change.before();
            ChannelBalance after = change.after();
            if (before != null) {
                deltas.merge(before.state().provider(), Totals.ZERO.minus(Totals.of(before)), Totals::plus);
            }
            deltas.merge(after.state().provider(), Totals.of(after), Totals::plus);
            lastActivity.merge(after.state().provider(), after.lastActivity(), ProviderAccounts::later);
        }
        if (!deltas.isEmpty()) {
            repository.addToAccounts(deltas, lastActivity);
        }
    }

    @Override
    public void reset() {
        repository.deleteAll();
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
