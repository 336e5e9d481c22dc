package io.chanledger.api.config;

import java.sql.DatabaseMetaData;
import javax.sql.DataSource;
import org.axonframework.common.transaction.Transaction;
import org.axonframework.common.transaction.TransactionManager;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.JdbcUtils;

/**
 * Lets transactions whose outcome is told to nobody commit without waiting for the disk: the
 * read models' batches, and the holds of paid requests (a batch of the gateway's admissions only,
 * see {@code VoucherCommitBatcher}).
 *
 * <p>PostgreSQL makes a commit visible to every other session at once, and durable once its
 * write-ahead log is flushed; with {@code synchronous_commit} off for one transaction, the commit
 * returns before that flush (the log writer flushes it within a fraction of a second). The log is
 * one sequence, so any later commit that does wait (a voucher, a settlement) makes every earlier
 * one durable with it. Only a crash of the database server itself can lose such a commit, and a
 * read model's batch lost so goes back together with its tracking token: its events are projected
 * again. What it saves is the flush the ledger's own commits would otherwise queue behind.
 *
 * <p>Only PostgreSQL is told: on another database every commit keeps waiting.
 */
public final class CommitFlush {

    private final JdbcTemplate jdbc;
    private final boolean postgres;

    public CommitFlush(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.postgres = isPostgres(dataSource);
    }

    /**
     * The current transaction's commit does not wait for the disk (on PostgreSQL). Runs on the
     * connection bound to the current Spring transaction, so it is called inside one.
     */
    public void deferForCurrentTransaction() {
        if (postgres) {
            jdbc.execute("SET LOCAL synchronous_commit TO OFF");
        }
    }

    /** {@code transactions}, every transaction of which commits without waiting for the disk. */
    public TransactionManager deferring(TransactionManager transactions) {
        return new TransactionManager() {
            @Override
            public Transaction startTransaction() {
                Transaction transaction = transactions.startTransaction();
                try {
                    deferForCurrentTransaction();
                } catch (RuntimeException e) {
                    transaction.rollback();
                    throw e;
                }
                return transaction;
            }
        };
    }

    private static boolean isPostgres(DataSource dataSource) {
        try {
            String product = JdbcUtils.extractDatabaseMetaData(dataSource, DatabaseMetaData::getDatabaseProductName);
            return "PostgreSQL".equalsIgnoreCase(product);
        } catch (Exception e) {
            return false;
        }
    }
}
