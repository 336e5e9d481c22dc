package io.chanledger.api.support;

import io.chanledger.api.config.RoleMigrations;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Creates the PostgreSQL databases the tests run on, afresh for every test run. The server comes
 * from CHAN_TEST_PG_HOST / CHAN_TEST_PG_PORT / CHAN_TEST_PG_USER / CHAN_TEST_PG_PASSWORD
 * (defaults: 127.0.0.1, 5432, postgres, no password).
 */
public final class TestDatabases {

    private static final String HOST = env("CHAN_TEST_PG_HOST", "127.0.0.1");
    private static final String PORT = env("CHAN_TEST_PG_PORT", "5432");
    public static final String USER = env("CHAN_TEST_PG_USER", "postgres");
    public static final String PASSWORD = env("CHAN_TEST_PG_PASSWORD", "");
    /** Lets two test runs share one server without dropping each other's databases. */
    private static final String SUFFIX = env("CHAN_TEST_DB_SUFFIX", "");

    private TestDatabases() {
    }

    public static String url(String database) {
        return "jdbc:postgresql://" + HOST + ":" + PORT + "/" + database;
    }

    /** Drops {@code name} if it exists (ending its connections) and creates it empty. */
    public static String recreate(String baseName) {
        String name = baseName + SUFFIX;
        if (!name.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("test database names are plain identifiers: " + name);
        }
        try (Connection admin = DriverManager.getConnection(url("postgres"), USER, PASSWORD);
             Statement statement = admin.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL at " + url("postgres") + " is needed by the tests "
                    + "(run them through the README's test command, which starts it): " + e.getMessage(), e);
        }
        return url(name);
    }

    /**
     * A fresh database {@code baseName} migrated with Flyway's {@code locations}, on one connection
     * the caller closes ({@code destroy()}): what is prepared on it stays in PostgreSQL's
     * {@code pg_prepared_statements} for the connection's own queries ({@link #preparedStatementRuns}).
     */
    public static SingleConnectionDataSource migratedConnection(String baseName, String... locations) {
        String url = recreate(baseName);
        Flyway.configure().dataSource(url, USER, PASSWORD).locations(locations).load().migrate();
        return new SingleConnectionDataSource(url, USER, PASSWORD, true);
    }

    /**
     * How often each statement prepared on the server on {@code jdbc}'s connection whose text is
     * {@code LIKE textPattern} has run since it was prepared; one entry per statement.
     */
    public static List<Long> preparedStatementRuns(JdbcTemplate jdbc, String textPattern) {
        return jdbc.queryForList("SELECT generic_plans + custom_plans FROM pg_prepared_statements"
                + " WHERE statement LIKE ?", Long.class, textPattern);
    }

    /**
     * A fresh in-memory database (H2 in PostgreSQL mode, no server) migrated by Flyway as the
     * service migrates its store: for a table's own tests.
     */
    public static DataSource migratedInMemory() {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:mem:" + UUID.randomUUID()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(dataSource).locations(RoleMigrations.ALL_LOCATIONS.toArray(String[]::new))
                .outOfOrder(true).load().migrate();
        return dataSource;
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
