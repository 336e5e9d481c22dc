package io.chanledger.api.eventstore;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * The service's DataSource on PostgreSQL: its pool, and beside it a small second pool whose
 * sessions start with {@code synchronous_commit} off. A transaction {@link CommitFlush} lets commit
 * without waiting for the disk takes its connection from the second pool, so it needs no statement
 * of its own to say so: the {@code SET LOCAL} it would otherwise send is one more round trip to the
 * database, on a lone paid request's admission as on every read-model batch.
 *
 * <p>Only the connection taken first inside {@link #deferringNextConnection} comes from the second
 * pool; every other connection, and every transaction started without it, comes from the first
 * and waits for the disk as before. A transaction that joins one already open takes no
 * connection, and so keeps waiting if the open one does.
 */
public final class DeferredCommitDataSource extends DelegatingDataSource implements AutoCloseable {

    /** The setting of every session of the second pool (the gateway bench's database floor sets it too). */
    public static final String DEFERRED_SESSION = "SET synchronous_commit TO OFF";

    private static final ThreadLocal<Boolean> NEXT_DEFERRED = new ThreadLocal<>();

    private final HikariDataSource main;
    private final HikariDataSource deferred;

    /**
     * @param main     the service's pool, of PostgreSQL connections
     * @param poolSize the second pool's size: the threads that commit without waiting at once (the
     *                 group-commit workers and the read models' processor threads)
     */
    DeferredCommitDataSource(HikariDataSource main, int poolSize) {
        super(main);
        this.main = main;
        HikariConfig config = new HikariConfig();
        main.copyStateTo(config);
        config.setPoolName((main.getPoolName() == null ? "HikariPool" : main.getPoolName()) + "-deferred-commits");
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(Math.min(poolSize, 2));
        config.setConnectionInitSql(main.getConnectionInitSql() == null ? DEFERRED_SESSION
                : main.getConnectionInitSql() + "; " + DEFERRED_SESSION);
        config.setMetricRegistry(null);
        config.setMetricsTrackerFactory(null);
        config.setHealthCheckRegistry(null);
        config.setRegisterMbeans(false);
        // started by its first connection, as the main pool is
        this.deferred = new HikariDataSource();
        config.copyStateTo(deferred);
    }

    /** Whether {@code dataSource} can be given this second pool: a Hikari pool of PostgreSQL. */
    static boolean suits(Object dataSource) {
        return dataSource instanceof HikariDataSource hikari && hikari.getJdbcUrl() != null
                && hikari.getJdbcUrl().startsWith("jdbc:postgresql:");
    }

    /**
     * Runs {@code start} (which opens a transaction) with its first new connection taken from the
     * pool that does not wait for the disk.
     */
    public void deferringNextConnection(Runnable start) {
        NEXT_DEFERRED.set(Boolean.TRUE);
        try {
            start.run();
        } finally {
            NEXT_DEFERRED.remove();
        }
    }

    @Override
    public Connection getConnection() throws SQLException {
        if (NEXT_DEFERRED.get() != null) {
            NEXT_DEFERRED.remove();
            return deferred.getConnection();
        }
        return main.getConnection();
    }

    @Override
    public void close() {
        deferred.close();
        main.close();
    }
}
