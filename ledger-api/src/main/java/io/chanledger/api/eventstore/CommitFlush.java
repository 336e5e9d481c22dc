package io.chanledger.api.eventstore;

import java.sql.DatabaseMetaData;
import javax.sql.DataSource;
import org.axonframework.common.transaction.Transaction;
import org.axonframework.common.transaction.TransactionManager;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.JdbcUtils;

/**
 * Lets transactions whose outcome is told to nobody commit without waiting for the disk: the
 * read models' batches, and the holds of paid requests (a batch of the gateway's admissions only,
 * see {@code VoucherCommitBatcher}, or one committed alone, {@link LoneCommit}).
 *
 * <p>PostgreSQL makes a commit visible to every other session at once, and durable once its
 * write-ahead log is flushed; with {@code synchronous_commit} off for one transaction, the commit
 * returns before that flush (the log writer flushes it within a fraction of a second). The log is
 * one sequence, so any later commit that does wait (a voucher, a settlement) makes every earlier
 * one durable with it. Only a crash of the database server itself can lose such a commit, and a
 * read model's batch lost so goes back together with its tracking token: its events are projected
 * again. What it saves is the flush the ledger's own commits would otherwise queue behind.
 *
 * <p>With the service's pool ({@link DeferredCommitDataSource}), such a transaction takes its
 * connection from a second pool whose sessions have the setting already; with any other PostgreSQL
 * DataSource it sets it for itself ({@code SET LOCAL}, one more statement). Only PostgreSQL is
 * told: on another database every commit keeps waiting.
 */
public final class CommitFlush {

    private final JdbcTemplate jdbc;
    private final DeferredCommitDataSource deferredPool;
    /** PostgreSQL without the second pool: each such transaction says so itself. */
    private final boolean setLocal;

    public CommitFlush(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.deferredPool = dataSource instanceof DeferredCommitDataSource pool ? pool : null;
        this.setLocal = deferredPool == null && isPostgres(dataSource);
    }

    /**
     * Runs {@code startTransaction}, which opens a transaction on this DataSource, so that the
     * transaction commits without waiting for the disk (on PostgreSQL).
     */
    public void startWithoutWaiting(Runnable startTransaction) {
        if (deferredPool != null) {
            deferredPool.deferringNextConnection(startTransaction);
            return;
        }
        startTransaction.run();
        if (setLocal) {
            jdbc.execute("SET LOCAL synchronous_commit TO OFF");
        }
    }

    /**
     * Whether a command can be committed alone ({@link LoneCommit}): on the service's pool of
     * PostgreSQL connections, where a hold's lone commit can take a connection that does not wait.
     */
    public boolean commitsAlone() {
        return deferredPool != null;
    }

    /**
     * Runs {@code commit}, a {@link LoneCommit}'s, with its first new connection one that commits
     * without waiting for the disk.
     *
     * @throws IllegalStateException when commands cannot be committed alone here ({@link #commitsAlone})
     */
    public void commitAloneWithoutWaiting(Runnable commit) {
        if (deferredPool == null) {
            throw new IllegalStateException("commands are committed alone only on the service's PostgreSQL pool");
        }
        deferredPool.deferringNextConnection(commit);
    }

    /** {@code transactions}, every transaction of which commits without waiting for the disk. */
    public TransactionManager deferring(TransactionManager transactions) {
        return new TransactionManager() {
            @Override
            public Transaction startTransaction() {
                Transaction[] started = new Transaction[1];
                try {
                    startWithoutWaiting(() -> started[0] = transactions.startTransaction());
                } catch (RuntimeException e) {
                    if (started[0] != null) {
                        started[0].rollback();
                    }
                    throw e;
                }
                return started[0];
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
