package io.chanledger.domain.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.storage.EventStoreMapper;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A model's price keeps its kind wherever it is stored: a per-unit price read back from a stored
 * event is per unit, with its unit and bounds, and a price stored before the kind existed reads
 * back as the kind its two numbers meant.
 */
class ModelPriceTest {

    private static final ObjectMapper STORED = EventStoreMapper.create();
    private static final UnitPrice PER_MINUTE = new UnitPrice("minutes", BigInteger.valueOf(100), 5, 240);

    @Test
    void aPerUnitPriceSurvivesTheEventStore() throws Exception {
        ProviderModelsPublished published = new ProviderModelsPublished("p-1",
                List.of(ModelPrice.perUnit("relay-lease", "Relay lease", PER_MINUTE)), Instant.EPOCH);

        ProviderModelsPublished readBack = STORED.readValue(STORED.writeValueAsString(published),
                ProviderModelsPublished.class);

        assertThat(readBack).isEqualTo(published);
        ModelPrice lease = readBack.models().getFirst();
        assertThat(lease.kind()).isEqualTo(PriceKind.PER_UNIT);
        assertThat(lease.unitPrice()).isEqualTo(PER_MINUTE);
        assertThat(lease.inputPer1kTokens()).as("the highest price of a request, for deployed clients")
                .isEqualTo(BigInteger.valueOf(24_000));
        assertThat(lease.perRequest()).as("a per-unit price has no one price per request").isNull();
    }

    @Test
    void aPriceStoredBeforeTheKindExistedReadsAsItsNumbersMeant() throws Exception {
        String stored = """
                {"providerId":"p-1","publishedAt":"1970-01-01T00:00:00Z","models":[
                 {"id":"chat","name":"Chat","inputPer1kTokens":"150","outputPer1kTokens":"600"},
                 {"id":"fetch","name":"Fetch","inputPer1kTokens":"10000","outputPer1kTokens":"0"}]}""";

        List<ModelPrice> models = STORED.readValue(stored, ProviderModelsPublished.class).models();

        assertThat(models).extracting(ModelPrice::kind).containsExactly(PriceKind.TOKENS, PriceKind.FLAT);
        assertThat(models.get(1).perRequest()).isEqualTo(BigInteger.valueOf(10_000));
    }

    @Test
    void thePublishedPriceSaysItsKindInBaseUnits() {
        assertThat(ModelPrice.perUnit("relay-lease", null, PER_MINUTE).price())
                .isEqualTo(new Price(PriceKind.PER_UNIT, null, null, null, "100", "minutes", 5L, 240L));
        assertThat(new ModelPrice("fetch", null, BigInteger.valueOf(10_000), BigInteger.ZERO).price())
                .isEqualTo(new Price(PriceKind.FLAT, null, null, "10000", null, null, null, null));
        assertThat(new ModelPrice("chat", null, BigInteger.valueOf(150), BigInteger.valueOf(600)).price())
                .isEqualTo(new Price(PriceKind.TOKENS, "150", "600", null, null, null, null, null));
    }

    @Test
    void aPerUnitPriceMustPublishItsHighestPriceForDeployedClients() {
        assertThatThrownBy(() -> new ModelPrice("relay-lease", null, BigInteger.valueOf(100), BigInteger.ZERO,
                PriceKind.PER_UNIT, PER_MINUTE)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ModelPrice("chat", null, BigInteger.ONE, BigInteger.ONE, PriceKind.TOKENS,
                PER_MINUTE)).isInstanceOf(IllegalArgumentException.class);
    }
}
