package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.config.RoleMigrations;
import io.chanledger.api.support.TestDatabases;
import io.chanledger.projections.marketplace.CatalogReader;
import io.chanledger.projections.marketplace.CatalogSnapshot;
import io.chanledger.projections.marketplace.HistoryEntry;
import io.chanledger.projections.marketplace.JdbcProviderDirectoryStore;
import io.chanledger.projections.marketplace.ProviderRow;
import io.chanledger.projections.marketplace.ProviderView;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementCreator;
import org.springframework.jdbc.core.PreparedStatementSetter;
import org.springframework.jdbc.core.ResultSetExtractor;
import org.springframework.jdbc.core.SqlProvider;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The directory is read in one snapshot of the database: a provider's change that commits while
 * the catalogue is being read (here, right after its history was read and before its rows are) is
 * seen whole the next time, never as a row that went offline beside a history that does not say
 * so. On PostgreSQL, as deployed.
 */
class CatalogSnapshotConsistencyTest {

    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    @Test
    void aChangeCommittedWhileTheCatalogueIsReadIsSeenWholeOrNotAtAll() {
        String url = TestDatabases.recreate("chan_ledger_catalog_snapshot");
        DataSource database = new DriverManagerDataSource(url, TestDatabases.USER, TestDatabases.PASSWORD);
        // a data source of its own, so that its connections are not the reader's, though on its thread
        DataSource writerSource = new DriverManagerDataSource(url, TestDatabases.USER, TestDatabases.PASSWORD);
        Flyway.configure().dataSource(database).locations(RoleMigrations.ALL_LOCATIONS.toArray(String[]::new))
                .outOfOrder(true).load().migrate();
        // the writer: the directory's projection, with transactions of its own
        JdbcProviderDirectoryStore writer = new JdbcProviderDirectoryStore(new JdbcTemplate(writerSource));
        TransactionTemplate writes = new TransactionTemplate(new DataSourceTransactionManager(writerSource));
        ProviderRow online = ProviderRow.builder().providerId("prov-1").address("0x" + "12".repeat(20)).name("Acme")
                .description("").apiUrl("https://acme.example").category("llm").tier("community").registeredAt(T0)
                .approval("approved").online(true).inferenceOnline(true).build();
        writer.save(online);
        writer.appendHistory("prov-1", new HistoryEntry(0, T0, "registered", null));
        writer.markChanged();

        AtomicBoolean changed = new AtomicBoolean();
        JdbcTemplate reading = new JdbcTemplate(database) {
            @Override
            public <T> T query(PreparedStatementCreator creator, PreparedStatementSetter setter,
                               ResultSetExtractor<T> extractor) {
                T result = super.query(creator, setter, extractor);
                String sql = creator instanceof SqlProvider provider ? provider.getSql() : "";
                if (sql.contains("FROM marketplace_provider_history") && changed.compareAndSet(false, true)) {
                    // the provider's inference side goes down, row and history in one commit
                    writes.executeWithoutResult(status -> {
                        writer.save(ProviderRow.builder().providerId("prov-1").address(online.address()).name("Acme")
                                .description("").apiUrl(online.apiUrl()).category("llm").tier("community")
                                .registeredAt(T0).approval("approved").online(true).inferenceOnline(false)
                                .inferenceChangedAt(T0.plusSeconds(60)).build());
                        writer.appendHistory("prov-1", new HistoryEntry(1, T0.plusSeconds(60), "inference_offline", null));
                        writer.markChanged();
                    });
                }
                return result;
            }
        };
        CatalogReader reader = new CatalogReader(reading, new DataSourceTransactionManager(database), 20,
                Duration.ofHours(1), Duration.ofHours(24));

        CatalogSnapshot during = reader.readSnapshot(T0.plusSeconds(61));

        assertThat(changed).as("the change landed between the history and the rows").isTrue();
        ProviderView before = during.find("prov-1").orElseThrow();
        assertThat(before.inferenceOnline()).as("the row as of the snapshot").isTrue();
        assertThat(before.history()).extracting(HistoryEntry::kind).containsExactly("registered");
        assertThat(during.version()).isEqualTo(reader.version() - 1);

        CatalogSnapshot after = reader.readSnapshot(T0.plusSeconds(62));

        ProviderView now = after.find("prov-1").orElseThrow();
        assertThat(now.inferenceOnline()).isFalse();
        assertThat(now.history()).extracting(HistoryEntry::kind).containsExactly("registered", "inference_offline");
        assertThat(after.version()).isEqualTo(reader.version());
    }
}
