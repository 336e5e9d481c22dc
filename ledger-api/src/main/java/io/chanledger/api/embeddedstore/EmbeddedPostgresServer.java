package io.chanledger.api.embeddedstore;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL server of the default profile, in a data directory that outlives the service
 * (never cleaned), on a loopback port only. Its durability settings are set explicitly, since the
 * library's defaults are a test database's ({@code synchronous_commit=off}, {@code -F} for no
 * fsync): a commit is acknowledged once its WAL record is flushed to disk, as on the production
 * store. A server left running by a service that was killed is stopped before the start
 * ({@link OrphanedServer}).
 */
public final class EmbeddedPostgresServer implements AutoCloseable {

    public static final String USER = "postgres";
    public static final String DATABASE = "chan_ledger";

    /**
     * Given after the library's own options, which the server reads in order: the last word on each.
     * {@code unix_socket_directories} empty: TCP on loopback only, so that two stores never meet in a
     * shared socket folder.
     */
    static final Map<String, String> SETTINGS = Map.of(
            "fsync", "on",
            "synchronous_commit", "on",
            "full_page_writes", "on",
            "listen_addresses", "127.0.0.1",
            "unix_socket_directories", "",
            "max_connections", "100");

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresServer.class);

    private final EmbeddedPostgres postgres;
    private final Path dataDirectory;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres, Path dataDirectory) {
        this.postgres = postgres;
        this.dataDirectory = dataDirectory;
    }

    public static EmbeddedPostgresServer start(EmbeddedStoreProperties properties) {
        long started = System.nanoTime();
        Path folder = properties.directory().toAbsolutePath().normalize();
        Path dataDirectory = folder.resolve("postgres");
        // outside the data directory: initdb wants an empty one
        Path serverLog = folder.resolve("postgres.log");
        try {
            Files.createDirectories(folder);
            OrphanedServer.stopIfAny(dataDirectory, properties.startupTimeout());
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(false)
                    // stopped by the application context, after the connection pool is closed
                    .setRegisterShutdownHook(false)
                    .setPort(properties.port())
                    .setPGStartupWait(properties.startupTimeout())
                    // byte order, as the production databases' queries never depend on a locale's collation
                    .setLocaleConfig("locale", "C")
                    .setOutputRedirector(Redirect.appendTo(serverLog.toFile()))
                    .setErrorRedirector(Redirect.appendTo(serverLog.toFile()));
            SETTINGS.forEach(builder::setServerConfig);
            EmbeddedPostgres postgres = builder.start();
            EmbeddedPostgresServer server = new EmbeddedPostgresServer(postgres, dataDirectory);
            server.createDatabaseIfMissing();
            log.info("Embedded PostgreSQL on 127.0.0.1:{}, data in {}, started in {} ms (log: {})", postgres.getPort(),
                    dataDirectory, Duration.ofNanos(System.nanoTime() - started).toMillis(), serverLog);
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("the embedded PostgreSQL in " + dataDirectory + " did not start; see "
                    + serverLog, e);
        }
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/" + DATABASE;
    }

    public int port() {
        return postgres.getPort();
    }

    public Path dataDirectory() {
        return dataDirectory;
    }

    private void createDatabaseIfMissing() {
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
             Statement statement = connection.createStatement()) {
            try (ResultSet existing = statement.executeQuery(
                    "SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'")) {
                if (existing.next()) {
                    return;
                }
            }
            statement.execute("CREATE DATABASE " + DATABASE);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create the database " + DATABASE + " of the embedded PostgreSQL", e);
        }
    }

    /** A fast shutdown: sessions are ended, a checkpoint is written, the server exits. */
    @Override
    public void close() throws IOException {
        postgres.close();
    }
}
