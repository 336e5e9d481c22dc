package io.chanledger.projections.rebuild;

import io.chanledger.projections.channel.ChannelBalanceRepository;
import io.chanledger.projections.provideraccount.ProviderAccountRepository;
import io.chanledger.projections.readmodel.TableChecksum;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** Checksums the channel read models in one read-only transaction, so that all tables are read at one point. */
@Component
public class ReadModelChecksums {

    private final ChannelBalanceRepository balances;
    private final ProviderAccountRepository accounts;
    private final TransactionTemplate readOnly;

    ReadModelChecksums(ChannelBalanceRepository balances, ProviderAccountRepository accounts,
                       PlatformTransactionManager transactions) {
        this.balances = balances;
        this.accounts = accounts;
        this.readOnly = new TransactionTemplate(transactions);
        this.readOnly.setReadOnly(true);
        this.readOnly.setIsolationLevel(TransactionTemplate.ISOLATION_REPEATABLE_READ);
    }

    public ReadModelChecksum compute() {
        return readOnly.execute(status -> {
            List<TableChecksum> tables = new ArrayList<>();
            tables.add(balances.checksum());
            tables.add(accounts.checksum());
            return ReadModelChecksum.of(tables);
        });
    }
}
