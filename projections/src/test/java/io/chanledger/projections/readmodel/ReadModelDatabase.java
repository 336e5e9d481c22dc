package io.chanledger.projections.readmodel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A fresh in-memory database per test (H2 in PostgreSQL mode, which needs no server), with the
 * service's own read-model migrations applied: the handlers are tested on the real schema.
 */
public final class ReadModelDatabase {

    /** The read models' migration folders: the channels' and a provider's earnings. */
    private static final List<Path> MIGRATIONS = List.of(Path.of("src/main/resources/db/projections/channels"),
            Path.of("src/main/resources/db/projections/earnings"));

    private ReadModelDatabase() {
    }

    public static DataSource create() {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:mem:" + UUID.randomUUID()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
        dataSource.setUser("sa");
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        for (Path migration : readModelMigrations()) {
            for (String statement : statements(migration)) {
                jdbc.execute(statement);
            }
        }
        return dataSource;
    }

    /** Every read model migration but V2, which resets their processor's token, not here. */
    private static List<Path> readModelMigrations() {
        List<Path> migrations = new ArrayList<>();
        for (Path folder : MIGRATIONS) {
            try (Stream<Path> files = Files.list(folder)) {
                files.filter(f -> f.getFileName().toString().matches("V(?!2__)\\d+__.*\\.sql")).forEach(migrations::add);
            } catch (IOException e) {
                throw new UncheckedIOException("the migrations are read from " + folder.toAbsolutePath(), e);
            }
        }
        migrations.sort(Comparator.comparingInt(ReadModelDatabase::version));
        return migrations;
    }

    private static int version(Path migration) {
        return Integer.parseInt(migration.getFileName().toString().replaceAll("^V(\\d+)__.*", "$1"));
    }

    private static List<String> statements(Path migration) {
        try {
            StringBuilder sql = new StringBuilder();
            for (String line : Files.readAllLines(migration)) {
                if (!line.stripLeading().startsWith("--")) {
                    sql.append(line).append('\n');
                }
            }
            return Stream.of(sql.toString().split(";")).map(String::strip).filter(s -> !s.isEmpty()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
