package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.chanledger.domain.provider.ModelPrice;
import io.chanledger.projections.marketplace.CatalogSnapshot;
import io.chanledger.projections.marketplace.ProviderRow;
import io.chanledger.projections.marketplace.ProviderView;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ValidatorRegistryTest {

    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    private final AtomicReference<Instant> now = new AtomicReference<>(T0);
    private final AtomicReference<CatalogSnapshot> catalog = new AtomicReference<>(CatalogSnapshot.empty(T0));
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };
    private final ValidatorRegistry registry = new ValidatorRegistry(catalog::get,
            new ObjectMapper().registerModule(new JavaTimeModule()), clock, Duration.ofMinutes(5), 7, "chan");

    private static ProviderView miner(String id, boolean approved, boolean online) {
        ProviderRow row = ProviderRow.builder().providerId(id).address("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")
                .name("miner " + id).description("").apiUrl("https://" + id + ".example").category("llm")
                .tier("bittensor").hotkey("5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX").uid(3).registeredAt(T0)
                .approval(approved ? "approved" : "pending").approvalChangedAt(T0).online(online).onlineChangedAt(T0)
                .modelsPublishedAt(T0).inferenceOnline(online).inferenceChangedAt(T0).build();
        return new ProviderView(row, List.of(new ModelPrice("m", "m", BigInteger.ONE, BigInteger.ONE)),
                new ProviderView.Health(T0, 40L, 0, null), null, List.of());
    }

    @Test
    void listsOnlyApprovedOnlineMiners() throws Exception {
        catalog.set(new CatalogSnapshot(1, T0, List.of(miner("a", true, true), miner("b", true, false),
                miner("c", false, true))));

        String body = new String(registry.current().rendered().body());

        assertThat(body).contains("\"id\":\"a\"").doesNotContain("\"id\":\"b\"").doesNotContain("\"id\":\"c\"");
        assertThat(body).contains("\"count\":1").contains("\"onlineCount\":1").contains("\"subnet\":7");
    }

    @Test
    void everyMinerNamesItsProtocolAndTheUnpaidUrlToProbe() throws Exception {
        catalog.set(new CatalogSnapshot(1, T0, List.of(miner("a", true, true))));

        JsonNode miner = new ObjectMapper().readTree(registry.current().rendered().body()).path("miners").get(0);

        assertThat(miner.path("protocol").asText()).isEqualTo("chan");
        assertThat(miner.path("apiUrl").asText()).isEqualTo("https://a.example");
        assertThat(miner.path("probeUrl").asText()).isEqualTo("https://a.example/v1/models");
    }

    @Test
    void oneBodyIsServedForTheWholePeriodAndSaysHowLongItStaysCurrent() {
        catalog.set(new CatalogSnapshot(1, T0, List.of(miner("a", true, true))));
        ValidatorRegistry.Answer first = registry.current();
        assertThat(first.maxAgeSeconds()).isEqualTo(300);
        assertThat(first.cacheControl().getHeaderValue()).isEqualTo("max-age=300, public");

        catalog.set(new CatalogSnapshot(2, T0, List.of(miner("a", true, true), miner("d", true, true))));
        now.set(T0.plusSeconds(299));
        ValidatorRegistry.Answer later = registry.current();
        assertThat(later.rendered()).isSameAs(first.rendered());
        assertThat(later.maxAgeSeconds()).isEqualTo(1);

        now.set(T0.plusSeconds(300));
        ValidatorRegistry.Answer next = registry.current();
        assertThat(next.rendered().etag()).isNotEqualTo(first.rendered().etag());
        assertThat(new String(next.rendered().body())).contains("\"id\":\"d\"");
        assertThat(next.maxAgeSeconds()).isEqualTo(300);
    }
}
