package io.chanledger.api.eventstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.TestDatabases;
import javax.sql.DataSource;
import org.axonframework.common.transaction.Transaction;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.spring.messaging.unitofwork.SpringTransactionManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * The read models' transactions commit without waiting for the disk, and only they: the setting is
 * the transaction's own, so the pooled connection's next transaction waits again.
 */
class CommitFlushTest {

    /** One connection, so that what a transaction leaves on it would show in the next one. */
    private final SingleConnectionDataSource postgres = new SingleConnectionDataSource(
            TestDatabases.url("postgres"), TestDatabases.USER, TestDatabases.PASSWORD, true);

    @AfterEach
    void close() {
        postgres.destroy();
    }

    @Test
    void aDeferringTransactionCommitsWithoutWaitingAndLeavesTheConnectionAsItWas() {
        TransactionManager transactions = transactions(postgres);
        TransactionManager deferring = new CommitFlush(postgres).deferring(transactions);

        assertThat(settingIn(deferring, postgres)).isEqualTo("off");
        assertThat(settingIn(transactions, postgres)).as("the same connection's next transaction").isEqualTo("on");
        assertThat(settingIn(deferring, postgres)).isEqualTo("off");
    }

    @Test
    void onAnotherDatabaseNothingIsSetAndTransactionsRunAsBefore() {
        SingleConnectionDataSource h2 = new SingleConnectionDataSource("jdbc:h2:mem:commit-flush", "sa", "", true);
        try {
            TransactionManager deferring = new CommitFlush(h2).deferring(transactions(h2));
            Transaction transaction = deferring.startTransaction();
            assertThat(new JdbcTemplate(h2).queryForObject("SELECT 1", Integer.class)).isEqualTo(1);
            transaction.commit();
        } finally {
            h2.destroy();
        }
    }

    private static TransactionManager transactions(DataSource dataSource) {
        return new SpringTransactionManager(new DataSourceTransactionManager(dataSource));
    }

    /** {@code synchronous_commit} as a transaction of {@code transactions} sees it. */
    static String settingIn(TransactionManager transactions, DataSource dataSource) {
        Transaction transaction = transactions.startTransaction();
        try {
            return new JdbcTemplate(dataSource).queryForObject("SELECT current_setting('synchronous_commit')",
                    String.class);
        } finally {
            transaction.commit();
        }
    }
}
