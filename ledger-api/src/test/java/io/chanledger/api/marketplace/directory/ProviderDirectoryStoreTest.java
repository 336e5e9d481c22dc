package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.TestDatabases;
import io.chanledger.domain.provider.ProviderProfile;
import io.chanledger.projections.marketplace.CatalogReader;
import io.chanledger.projections.marketplace.CatalogSnapshot;
import io.chanledger.projections.marketplace.JdbcProviderDirectoryStore;
import io.chanledger.projections.marketplace.ProviderRow;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The directory's rows written and read back on the real schema (H2 in PostgreSQL mode, migrated by
 * Flyway); {@code ProviderProfileConversionTest} converts profiles stored before they were JSON.
 */
class ProviderDirectoryStoreTest {

    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    private JdbcTemplate jdbc;
    private JdbcProviderDirectoryStore store;

    @BeforeEach
    void migrate() {
        jdbc = new JdbcTemplate(TestDatabases.migratedInMemory());
        store = new JdbcProviderDirectoryStore(jdbc);
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

    /**
     * Every member of the profile, whichever there are, set and read back through the catalog: a
     * member added to {@link ProviderProfile} is stored with no column of its own, and this test
     * covers it without being told.
     */
    @Test
    void everyMemberOfAProfileIsWrittenAndReadBack() throws Exception {
        RecordComponent[] members = ProviderProfile.class.getRecordComponents();
        Object[] values = new Object[members.length];
        for (int i = 0; i < members.length; i++) {
            Class<?> type = members[i].getType();
            values[i] = type == String.class ? "https://acme.example/" + members[i].getName()
                    : type == Boolean.class ? Boolean.TRUE : null;
            assertThat(values[i]).as("a value for the profile's member %s of type %s", members[i].getName(), type)
                    .isNotNull();
        }
        ProviderProfile profile = (ProviderProfile) ProviderProfile.class.getDeclaredConstructor(
                Arrays.stream(members).map(RecordComponent::getType).toArray(Class<?>[]::new)).newInstance(values);
        store.save(everyValueSet());
        store.saveProfile("prov-1", profile);

        CatalogSnapshot read = new CatalogReader(jdbc, 10, Duration.ofHours(1)).read(1, T0);

        assertThat(read.find("prov-1").orElseThrow().profile()).isEqualTo(profile);
    }

    @Test
    void aProfileGivingNothingReadsBackAsNone() {
        store.save(everyValueSet());
        store.saveProfile("prov-1", ProviderProfile.NONE);

        CatalogSnapshot read = new CatalogReader(jdbc, 10, Duration.ofHours(1)).read(1, T0);

        assertThat(read.find("prov-1").orElseThrow().profile()).isEqualTo(ProviderProfile.NONE);
        assertThat(jdbc.queryForObject("SELECT profile FROM marketplace_provider_profile", String.class)).isEqualTo("{}");
    }
}
