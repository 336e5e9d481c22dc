package io.chanledger.projections.marketplace;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.domain.provider.ModelPrice;
import io.chanledger.domain.provider.ProviderApproved;
import io.chanledger.domain.provider.ProviderCategory;
import io.chanledger.domain.provider.ProviderIds;
import io.chanledger.domain.provider.ProviderInferenceWentOffline;
import io.chanledger.domain.provider.ProviderInferenceWentOnline;
import io.chanledger.domain.provider.ProviderModelsPublished;
import io.chanledger.domain.provider.ProviderRegistered;
import io.chanledger.domain.provider.ProviderScoreUpdated;
import io.chanledger.domain.provider.ProviderSuspended;
import io.chanledger.domain.provider.ProviderTier;
import io.chanledger.domain.provider.ProviderWentOffline;
import io.chanledger.domain.provider.ProviderWentOnline;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ProviderDirectoryProjectionTest {

    private static final String ADDRESS = "0x888a81f924fee3dd0be6367484caa4e91ad34a3f";
    private static final String ID = ProviderIds.forAddress(ADDRESS);
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    private static final ModelPrice SMALL = new ModelPrice("small", "Small", BigInteger.valueOf(150), BigInteger.ZERO);

    private final InMemoryProviderDirectoryStore store = new InMemoryProviderDirectoryStore();
    private final AtomicInteger notified = new AtomicInteger();
    private ProviderDirectoryProjection projection;

    @BeforeEach
    void setUp() {
        projection = new ProviderDirectoryProjection(store, notified::incrementAndGet);
    }

    private void register() {
        projection.on(new ProviderRegistered(ID, ADDRESS, "Acme", "Chat", "https://acme.example",
                ProviderCategory.MULTI_MODAL, List.of(ProviderCategory.LLM, ProviderCategory.CODE), ProviderTier.BITTENSOR,
                "5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX", 12, "https://acme.example/docs", T0), 0);
    }

    @Test
    void aRegisteredProviderIsPendingAndOfflineUntilItsStatusArrives() {
        register();

        ProviderRow row = store.rows.get(ID);
        assertThat(row.approval()).isEqualTo("pending");
        assertThat(row.online()).isFalse();
        assertThat(row.category()).isEqualTo("multi-modal");
        assertThat(row.additionalCategories()).containsExactly("llm", "code");
        assertThat(row.tier()).isEqualTo("bittensor");
        assertThat(row.uid()).isEqualTo(12);
        assertThat(store.history.get(ID)).extracting(HistoryEntry::kind).containsExactly("registered");
        assertThat(store.changes).isEqualTo(1);
        assertThat(notified).hasValue(1);
    }

    @Test
    void approvalOnlineAndScoreFollowTheEvents() {
        register();
        projection.on(new ProviderModelsPublished(ID, List.of(SMALL), T0), 1);
        projection.on(new ProviderWentOnline(ID, T0), 2);
        projection.on(new ProviderApproved(ID, T0.plusSeconds(5), false), 3);
        projection.on(new ProviderScoreUpdated(ID, new BigDecimal("0.75"), T0.plusSeconds(6)), 4);

        ProviderRow row = store.rows.get(ID);
        assertThat(row.isApproved()).isTrue();
        assertThat(row.approvalChangedAt()).isEqualTo(T0.plusSeconds(5));
        assertThat(row.online()).isTrue();
        assertThat(row.score()).isEqualByComparingTo("0.75");
        assertThat(row.modelsPublishedAt()).isEqualTo(T0);
        assertThat(store.models.get(ID)).containsExactly(SMALL);
        assertThat(store.history.get(ID)).extracting(HistoryEntry::kind)
                .containsExactly("registered", "models_published", "online", "approved", "score_updated");
        assertThat(store.history.get(ID).get(1).detail()).isEqualTo("small 0.00015/0");
    }

    @Test
    void goingOfflineKeepsTheReasonAndComingBackClearsIt() {
        register();
        projection.on(new ProviderWentOnline(ID, T0), 1);
        projection.on(new ProviderWentOffline(ID, "connection refused", 3, T0.plusSeconds(90)), 2);

        assertThat(store.rows.get(ID).online()).isFalse();
        assertThat(store.rows.get(ID).offlineReason()).isEqualTo("connection refused");
        assertThat(store.history.get(ID).get(2).detail()).isEqualTo("connection refused (3 failed checks)");

        projection.on(new ProviderWentOnline(ID, T0.plusSeconds(120)), 3);
        assertThat(store.rows.get(ID).online()).isTrue();
        assertThat(store.rows.get(ID).offlineReason()).isNull();
        assertThat(store.rows.get(ID).onlineChangedAt()).isEqualTo(T0.plusSeconds(120));
    }

    @Test
    void theInferenceSideIsFollowedApartFromThePricingSide() {
        register();
        projection.on(new ProviderWentOnline(ID, T0), 1);
        assertThat(store.rows.get(ID).inferenceOnline()).isFalse();

        projection.on(new ProviderInferenceWentOnline(ID, T0.plusSeconds(30)), 2);
        assertThat(store.rows.get(ID).inferenceOnline()).isTrue();
        assertThat(store.rows.get(ID).inferenceChangedAt()).isEqualTo(T0.plusSeconds(30));

        projection.on(new ProviderInferenceWentOffline(ID, "chat_probe: answered HTTP 500", 2, T0.plusSeconds(90)), 3);
        assertThat(store.rows.get(ID).inferenceOnline()).isFalse();
        assertThat(store.rows.get(ID).online()).isTrue();
        assertThat(store.history.get(ID).get(3).kind()).isEqualTo("inference_offline");
        assertThat(store.history.get(ID).get(3).detail()).isEqualTo("chat_probe: answered HTTP 500 (2 failed checks)");
    }

    @Test
    void suspensionKeepsTheReason() {
        register();
        projection.on(new ProviderSuspended(ID, "wrong prices", T0.plusSeconds(1)), 1);

        assertThat(store.rows.get(ID).approval()).isEqualTo("suspended");
        assertThat(store.rows.get(ID).suspensionReason()).isEqualTo("wrong prices");
        assertThat(store.rows.get(ID).isApproved()).isFalse();
    }

    @Test
    void handlingAnEventTwiceWritesItsHistoryOnce() {
        register();
        ProviderWentOnline online = new ProviderWentOnline(ID, T0);
        projection.on(online, 1);
        projection.on(online, 1);

        assertThat(store.history.get(ID)).hasSize(2);
        assertThat(store.rows.get(ID).online()).isTrue();
    }

    @Test
    void eventsForAnUnknownProviderChangeNoRow() {
        projection.on(new ProviderApproved("prov-000000000000000000000000", T0, false), 1);

        assertThat(store.rows).isEmpty();
    }

    @Test
    void resetForgetsEverything() {
        register();
        projection.on(new ProviderModelsPublished(ID, List.of(SMALL), T0), 1);

        projection.reset();

        assertThat(store.rows).isEmpty();
        assertThat(store.models).isEmpty();
        assertThat(store.history).isEmpty();
    }
}
