package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.config.RoleMigrations;
import io.chanledger.api.support.TestDatabases;
import io.chanledger.domain.provider.ProviderProfile;
import io.chanledger.projections.marketplace.CatalogReader;
import io.chanledger.projections.marketplace.CatalogSnapshot;
import io.chanledger.projections.marketplace.JdbcProviderDirectoryStore;
import io.chanledger.projections.marketplace.ProviderRow;
import java.time.Duration;
import java.time.Instant;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * A database whose profiles were stored in three columns, before the profile became one JSON text
 * (V42), keeps every profile through the migration: on PostgreSQL, as deployed.
 */
class ProviderProfileConversionTest {

    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    @Test
    void profilesStoredInColumnsReadBackTheSameAfterTheMigration() {
        DriverManagerDataSource database = new DriverManagerDataSource(
                TestDatabases.recreate("chan_ledger_profile_conversion"), TestDatabases.USER, TestDatabases.PASSWORD);
        Flyway.configure().dataSource(database).locations(RoleMigrations.ALL_LOCATIONS.toArray(String[]::new))
                .outOfOrder(true).target("39").load().migrate();
        JdbcTemplate jdbc = new JdbcTemplate(database);
        JdbcProviderDirectoryStore store = new JdbcProviderDirectoryStore(jdbc);
        String[] ids = {"full", "streams-only", "nothing"};
        for (int i = 0; i < ids.length; i++) {
            String id = ids[i];
            store.save(ProviderRow.builder().providerId(id).address("0x" + String.valueOf(i + 1).repeat(40)).name(id).description("")
                    .apiUrl("https://" + id + ".example").category("llm").tier("community").registeredAt(T0)
                    .approval("approved").build());
        }
        // a quote and a backslash, which no checked URL has, to prove the conversion escapes them
        jdbc.update("INSERT INTO marketplace_provider_profile (provider_id, logo_url, website, supports_streaming) "
                + "VALUES ('full', 'https://full.example/logo.png?a=\"b\\c', 'https://full.example', FALSE)");
        jdbc.update("INSERT INTO marketplace_provider_profile (provider_id, logo_url, website, supports_streaming) "
                + "VALUES ('streams-only', NULL, NULL, TRUE)");
        jdbc.update("INSERT INTO marketplace_provider_profile (provider_id, logo_url, website, supports_streaming) "
                + "VALUES ('nothing', NULL, NULL, NULL)");

        Flyway.configure().dataSource(database).locations(RoleMigrations.ALL_LOCATIONS.toArray(String[]::new))
                .outOfOrder(true).load().migrate();

        CatalogSnapshot read = new CatalogReader(jdbc, 10, Duration.ofHours(1)).read(1, T0);
        assertThat(read.find("full").orElseThrow().profile()).isEqualTo(
                new ProviderProfile("https://full.example/logo.png?a=\"b\\c", "https://full.example", false));
        assertThat(read.find("streams-only").orElseThrow().profile()).isEqualTo(new ProviderProfile(null, null, true));
        assertThat(read.find("nothing").orElseThrow().profile()).isEqualTo(ProviderProfile.NONE);
    }
}
