package io.chanledger.api.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.RoleInstance;
import io.chanledger.api.support.TestDatabases;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * A database migrated by role {@code all} (the local network's, or a service that ran both parts
 * before roles split the migrations) starts as a provider and as a marketplace: each role validates
 * it without the other role's migrations, adds nothing to it and leaves the other role's tables alone.
 */
class DatabaseOfRoleAllTest {

    @Test
    void aDatabaseMigratedByRoleAllStartsAsAProviderAndAsAMarketplace() {
        String url = TestDatabases.recreate("chan_ledger_role_all_migrated");
        DataSource database = new DriverManagerDataSource(url, TestDatabases.USER, TestDatabases.PASSWORD);
        Flyway.configure().dataSource(database)
                .locations(RoleMigrations.locations(Role.ALL).toArray(String[]::new))
                .outOfOrder(true).load().migrate();
        assertThat(RoleSchemas.tablesIn(database)).isEqualTo(RoleSchemas.tablesOf(Role.ALL));
        List<Map<String, Object>> history = history(database);

        for (Role role : List.of(Role.PROVIDER, Role.MARKETPLACE)) {
            // RoleInstance starts on a fresh database of the name given: this one is left unused, the
            // datasource setting points the role at the database of role all
            try (ConfigurableApplicationContext started = RoleInstance.start(role, "chan_ledger_role_unused",
                    Map.of("spring.datasource.url", url))) {
                assertThat(started.getBean(RoleProperties.class).role()).isEqualTo(role);
                assertThat(RoleSchemas.tablesIn(started.getBean(DataSource.class)))
                        .as("the tables after starting as %s", role).isEqualTo(RoleSchemas.tablesOf(Role.ALL));
            }
            assertThat(history(database)).as("Flyway's history after starting as %s", role).isEqualTo(history);
        }
    }

    private static List<Map<String, Object>> history(DataSource database) {
        return new JdbcTemplate(database).queryForList(
                "SELECT version, script, checksum, success FROM flyway_schema_history ORDER BY installed_rank");
    }
}
