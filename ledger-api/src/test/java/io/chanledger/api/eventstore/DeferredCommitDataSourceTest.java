package io.chanledger.api.eventstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.chanledger.api.support.TestDatabases;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.spring.messaging.unitofwork.SpringTransactionManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * The second pool of the service's DataSource: only the first connection a deferred start takes
 * comes from it, nothing else ever does (whatever the start did), and its sessions commit without
 * waiting for the disk while the first pool's wait.
 */
class DeferredCommitDataSourceTest {

    private final HikariDataSource pool = pool(TestDatabases.url("postgres"));
    private final DeferredCommitDataSource dataSource = new DeferredCommitDataSource(pool, 4);

    @AfterEach
    void close() {
        dataSource.close();
    }

    private static HikariDataSource pool(String url) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(url);
        pool.setUsername(TestDatabases.USER);
        pool.setPassword(TestDatabases.PASSWORD);
        pool.setMaximumPoolSize(4);
        return pool;
    }

    private static String setting(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT current_setting('synchronous_commit')")) {
            row.next();
            return row.getString(1);
        }
    }

    @Test
    void onlyTheFirstConnectionOfADeferredStartWaitsForNoFlush() throws SQLException {
        List<String> settings = new ArrayList<>();
        dataSource.deferringNextConnection(() -> {
            try (Connection first = dataSource.getConnection(); Connection second = dataSource.getConnection()) {
                settings.add(setting(first));
                settings.add(setting(second));
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(settings).containsExactly("off", "on");
        try (Connection after = dataSource.getConnection()) {
            assertThat(setting(after)).as("a connection taken after the start").isEqualTo("on");
        }
    }

    @Test
    void aStartThatFailsOrTakesNoConnectionLeavesTheNextConnectionWaiting() throws SQLException {
        assertThatThrownBy(() -> dataSource.deferringNextConnection(() -> {
            throw new IllegalStateException("the transaction could not start");
        })).isInstanceOf(IllegalStateException.class);
        try (Connection next = dataSource.getConnection()) {
            assertThat(setting(next)).isEqualTo("on");
        }
        dataSource.deferringNextConnection(() -> { }); // as a start that joined a transaction already open
        try (Connection next = dataSource.getConnection()) {
            assertThat(setting(next)).isEqualTo("on");
        }
    }

    @Test
    void theLedgersTransactionsWaitHoweverManyDeferredOnesRanBeforeThemOnTheSameThread() {
        TransactionManager transactions = new SpringTransactionManager(new DataSourceTransactionManager(dataSource));
        TransactionManager deferring = new CommitFlush(dataSource).deferring(transactions);
        List<String> settings = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            settings.add(CommitFlushTest.settingIn(deferring, dataSource));
            settings.add(CommitFlushTest.settingIn(transactions, dataSource));
        }
        assertThat(settings).containsExactly("off", "on", "off", "on", "off", "on", "off", "on", "off", "on", "off",
                "on");
        assertThat(new JdbcTemplate(dataSource).queryForObject("SELECT current_setting('synchronous_commit')",
                String.class)).as("outside any transaction").isEqualTo("on");
    }

    @Test
    void onlyAHikariPoolOfPostgresGetsASecondPool() {
        assertThat(DeferredCommitDataSource.suits(pool)).isTrue();
        try (HikariDataSource h2 = new HikariDataSource()) {
            h2.setJdbcUrl("jdbc:h2:mem:deferred-commits");
            assertThat(DeferredCommitDataSource.suits(h2)).isFalse();
        }
        DataSource single = new SingleConnectionDataSource(TestDatabases.url("postgres"), TestDatabases.USER,
                TestDatabases.PASSWORD, true);
        assertThat(DeferredCommitDataSource.suits(single)).isFalse();
    }

    private void takeAConnection() {
        try (Connection ignored = dataSource.getConnection()) {
            // opened and given back
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void closingClosesBothPools() throws SQLException {
        dataSource.deferringNextConnection(this::takeAConnection);
        dataSource.close();
        assertThat(pool.isClosed()).isTrue();
        assertThatThrownBy(() -> dataSource.deferringNextConnection(this::takeAConnection))
                .hasRootCauseInstanceOf(SQLException.class);
    }
}
