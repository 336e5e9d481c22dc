package io.chanledger.domain.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.storage.EventStoreMapper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A provider read back from a snapshot, written field by field as JSON as the application's event
 * store writes snapshots, is the provider it was: approval, score, models and status.
 */
class ProviderSnapshotTest {

    private static final ObjectMapper SNAPSHOTS = EventStoreMapper.create();

    private static final String ID = "provider-7";
    private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");

    @Test
    void everyFieldSurvivesASnapshot() throws Exception {
        ProviderAggregate provider = new ProviderAggregate();
        provider.on(new ProviderRegistered(ID, "0x" + "12".repeat(20), "Acme", "Chat models", "https://acme.example",
                ProviderCategory.LLM, List.of(ProviderCategory.CODE), ProviderTier.values()[0], null, null, null, T0));
        provider.on(new ProviderApproved(ID, T0, true));
        provider.on(new ProviderScoreUpdated(ID, new BigDecimal("87.25"), T0));
        provider.on(new ProviderModelsPublished(ID, List.of(new ModelPrice("m-1", "Model One",
                BigInteger.valueOf(3_750), BigInteger.valueOf(15_000))), T0));
        provider.on(new ProviderWentOnline(ID, T0));

        String written = SNAPSHOTS.writeValueAsString(provider);
        ProviderAggregate readBack = SNAPSHOTS.readValue(written, ProviderAggregate.class);

        assertThat(written).contains(ID, "APPROVED", "87.25", "m-1", "3750", "\"online\":true");
        assertThat(SNAPSHOTS.writeValueAsString(readBack)).isEqualTo(written);
    }
}
