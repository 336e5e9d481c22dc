package io.chanledger.api.marketplace;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.TestDatabases;
import io.chanledger.projections.marketplace.JdbcProviderDirectoryStore;
import io.chanledger.projections.marketplace.ProviderRow;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** The directory's rows written and read back on the real schema (H2 in PostgreSQL mode, migrated by Flyway). */
class ProviderDirectoryStoreTest {

    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    private JdbcProviderDirectoryStore store;

    @BeforeEach
    void migrate() {
        store = new JdbcProviderDirectoryStore(new JdbcTemplate(TestDatabases.migratedInMemory()));
    }

    /** Every component set, each to a value of its own, so that two columns swapped would show. */
    private static ProviderRow everyValueSet() {
        return ProviderRow.builder().providerId("prov-1").address("0x" + "12".repeat(20)).name("Acme")
                .description("Chat models").apiUrl("https://acme.example").category("llm")
                .additionalCategories(List.of("code", "multi-modal")).tier("bittensor").hotkey("5F3sa2")
                .uid(12).docsUrl("https://acme.example/docs").registeredAt(T0).approval("suspended")
                .approvalChangedAt(T0.plusSeconds(1)).suspensionReason("abuse").score(new BigDecimal("0.75"))
                .online(true).onlineChangedAt(T0.plusSeconds(2)).offlineReason("was down")
                .modelsPublishedAt(T0.plusSeconds(3)).inferenceOnline(true).inferenceChangedAt(T0.plusSeconds(4))
                .build();
    }

    @Test
    void everyComponentOfARowIsWrittenAndReadBack() throws Exception {
        ProviderRow row = everyValueSet();
        for (RecordComponent component : ProviderRow.class.getRecordComponents()) {
            Object value = component.getAccessor().invoke(row);
            assertThat(value).as(component.getName()).isNotNull().isNotEqualTo(false);
        }

        store.save(row);

        assertThat(store.find("prov-1")).contains(row);
    }

    @Test
    void aSavedRowReplacesTheOneBeforeItAndAnEmptyOneReadsBackEmpty() {
        store.save(everyValueSet());
        ProviderRow bare = ProviderRow.builder().providerId("prov-1").address("0x" + "34".repeat(20)).name("Acme")
                .description("").apiUrl("https://acme.example").category("llm").tier("community")
                .registeredAt(T0).approval("pending").build();

        store.save(bare);

        assertThat(store.find("prov-1")).contains(bare);
        assertThat(bare.additionalCategories()).isEmpty();
        assertThat(store.find("prov-2")).isEmpty();
    }
}
