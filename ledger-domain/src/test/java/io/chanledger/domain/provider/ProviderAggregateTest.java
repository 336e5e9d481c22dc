package io.chanledger.domain.provider;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ProviderAggregateTest {

    private static final String ADDRESS = "0x888a81f924fee3dd0be6367484caa4e91ad34a3f";
    private static final String ID = ProviderIds.forAddress(ADDRESS);
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    private static final Instant T1 = T0.plusSeconds(60);
    private static final ModelPrice SMALL = new ModelPrice("small", "Small", BigInteger.valueOf(150), BigInteger.valueOf(600));
    private static final ModelPrice LARGE = new ModelPrice("large", "Large", BigInteger.valueOf(3750), BigInteger.valueOf(15000));

    private FixtureConfiguration<ProviderAggregate> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(ProviderAggregate.class);
    }

    private static RegisterProvider register(ProviderTier tier, String hotkey, Integer uid, boolean autoApprove,
                                             List<ModelPrice> models) {
        return new RegisterProvider(ID, ADDRESS, "Acme", "Chat models", "https://acme.example", ProviderCategory.LLM,
                List.of(ProviderCategory.CODE), tier, hotkey, uid, null, models, T0, autoApprove);
    }

    private static ProviderRegistered registered(ProviderTier tier, String hotkey, Integer uid) {
        return new ProviderRegistered(ID, ADDRESS, "Acme", "Chat models", "https://acme.example", ProviderCategory.LLM,
                List.of(ProviderCategory.CODE), tier, hotkey, uid, null, T0);
    }

    private static ProviderModelsPublished published(Instant at, ModelPrice... models) {
        return new ProviderModelsPublished(ID, ModelPrice.canonical(List.of(models)), at);
    }

    @Test
    void communityRegistrationWaitsForApprovalWithItsModelsAndOnlineStatus() {
        fixture.givenNoPriorActivity()
                .when(register(ProviderTier.COMMUNITY, null, null, false, List.of(SMALL, LARGE)))
                .expectEvents(registered(ProviderTier.COMMUNITY, null, null),
                        published(T0, LARGE, SMALL),
                        new ProviderWentOnline(ID, T0));
    }

    @Test
    void autoApprovedRegistrationIsListedAtOnce() {
        fixture.givenNoPriorActivity()
                .when(register(ProviderTier.BITTENSOR, "5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX", 7, true,
                        List.of(SMALL)))
                .expectEvents(registered(ProviderTier.BITTENSOR, "5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX", 7),
                        published(T0, SMALL),
                        new ProviderWentOnline(ID, T0),
                        new ProviderApproved(ID, T0, true));
    }

    @Test
    void refusesAnIdThatIsNotDerivedFromTheAddress() {
        RegisterProvider command = new RegisterProvider("prov-000000000000000000000000", ADDRESS, "Acme", "",
                "https://acme.example", ProviderCategory.LLM, List.of(), ProviderTier.COMMUNITY, null, null, null,
                List.of(SMALL), T0, false);
        fixture.givenNoPriorActivity()
                .when(command)
                .expectException(ProviderRejectedException.class)
                .expectNoEvents();
    }

    @Test
    void refusesABittensorProviderWithoutHotkeyOrUid() {
        fixture.givenNoPriorActivity()
                .when(register(ProviderTier.BITTENSOR, "5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX", null, true,
                        List.of(SMALL)))
                .expectException(ProviderRejectedException.class)
                .expectExceptionMessage("a bittensor provider needs its hotkey and uid");
    }

    @Test
    void refusesARegistrationWithoutModels() {
        fixture.givenNoPriorActivity()
                .when(register(ProviderTier.COMMUNITY, null, null, false, List.of()))
                .expectException(ProviderRejectedException.class)
                .expectNoEvents();
    }

    @Test
    void refusesAMixedCaseAddress() {
        RegisterProvider command = new RegisterProvider(ID, "0x888A81f924fee3dd0be6367484caa4e91ad34a3f", "Acme", "",
                "https://acme.example", ProviderCategory.LLM, List.of(), ProviderTier.COMMUNITY, null, null, null,
                List.of(SMALL), T0, false);
        fixture.givenNoPriorActivity()
                .when(command)
                .expectException(ProviderRejectedException.class);
    }

    @Test
    void approvalIsRecordedOnce() {
        fixture.given(registered(ProviderTier.COMMUNITY, null, null), published(T0, SMALL))
                .when(new ApproveProvider(ID, T1))
                .expectEvents(new ProviderApproved(ID, T1, false));
        fixture.given(registered(ProviderTier.COMMUNITY, null, null), new ProviderApproved(ID, T0, false))
                .when(new ApproveProvider(ID, T1))
                .expectSuccessfulHandlerExecution()
                .expectNoEvents();
    }

    @Test
    void suspensionCarriesItsReasonAndApprovalReinstates() {
        fixture.given(registered(ProviderTier.COMMUNITY, null, null), new ProviderApproved(ID, T0, false))
                .when(new SuspendProvider(ID, "serves wrong prices", T1))
                .expectEvents(new ProviderSuspended(ID, "serves wrong prices", T1));
        fixture.given(registered(ProviderTier.COMMUNITY, null, null), new ProviderSuspended(ID, "x", T0))
                .when(new ApproveProvider(ID, T1))
                .expectEvents(new ProviderApproved(ID, T1, false));
        fixture.given(registered(ProviderTier.COMMUNITY, null, null), new ProviderSuspended(ID, "x", T0))
                .when(new SuspendProvider(ID, "again", T1))
                .expectNoEvents();
    }

    @Test
    void scoreMustLieBetweenZeroAndOne() {
        fixture.given(registered(ProviderTier.COMMUNITY, null, null))
                .when(new UpdateProviderScore(ID, new BigDecimal("1.01"), T1))
                .expectException(ProviderRejectedException.class)
                .expectNoEvents();
        fixture.given(registered(ProviderTier.COMMUNITY, null, null))
                .when(new UpdateProviderScore(ID, new BigDecimal("-0.1"), T1))
                .expectException(ProviderRejectedException.class);
        fixture.given(registered(ProviderTier.COMMUNITY, null, null))
                .when(new UpdateProviderScore(ID, new BigDecimal("0.870"), T1))
                .expectEvents(new ProviderScoreUpdated(ID, new BigDecimal("0.87"), T1));
    }

    @Test
    void anUnchangedScoreRecordsNothing() {
        fixture.given(registered(ProviderTier.COMMUNITY, null, null), new ProviderScoreUpdated(ID, new BigDecimal("0.5"), T0))
                .when(new UpdateProviderScore(ID, new BigDecimal("0.50"), T1))
                .expectSuccessfulHandlerExecution()
                .expectNoEvents();
    }

    @Test
    void pricesAreRecordedOnlyWhenTheyChange() {
        fixture.given(registered(ProviderTier.COMMUNITY, null, null), published(T0, LARGE, SMALL))
                .when(new PublishProviderModels(ID, List.of(SMALL, LARGE), T1))
                .expectSuccessfulHandlerExecution()
                .expectNoEvents();
        ModelPrice cheaper = new ModelPrice("large", "Large", BigInteger.valueOf(3000), BigInteger.valueOf(15000));
        fixture.given(registered(ProviderTier.COMMUNITY, null, null), published(T0, LARGE, SMALL))
                .when(new PublishProviderModels(ID, List.of(SMALL, cheaper), T1))
                .expectEvents(published(T1, cheaper, SMALL));
    }

    @Test
    void anEmptyModelListIsRefused() {
        fixture.given(registered(ProviderTier.COMMUNITY, null, null), published(T0, SMALL))
                .when(new PublishProviderModels(ID, List.of(), T1))
                .expectException(ProviderRejectedException.class);
    }

    @Test
    void onlyStatusTransitionsAreRecorded() {
        fixture.given(registered(ProviderTier.COMMUNITY, null, null), new ProviderWentOnline(ID, T0))
                .when(new RecordProviderOnline(ID, T1))
                .expectNoEvents()
                .expectResultMessagePayload(false);
        fixture.given(registered(ProviderTier.COMMUNITY, null, null), new ProviderWentOnline(ID, T0))
                .when(new RecordProviderOffline(ID, "connection refused", 3, T1))
                .expectEvents(new ProviderWentOffline(ID, "connection refused", 3, T1))
                .expectResultMessagePayload(true);
        fixture.given(registered(ProviderTier.COMMUNITY, null, null), new ProviderWentOnline(ID, T0),
                        new ProviderWentOffline(ID, "timeout", 3, T0))
                .when(new RecordProviderOffline(ID, "timeout", 4, T1))
                .expectNoEvents();
        fixture.given(registered(ProviderTier.COMMUNITY, null, null), new ProviderWentOnline(ID, T0),
                        new ProviderWentOffline(ID, "timeout", 3, T0))
                .when(new RecordProviderOnline(ID, T1))
                .expectEvents(new ProviderWentOnline(ID, T1));
    }

    @Test
    void theInferenceSideStartsUnknownAsDownAndOnlyItsTransitionsAreRecorded() {
        fixture.given(registered(ProviderTier.COMMUNITY, null, null), new ProviderWentOnline(ID, T0))
                .when(new RecordProviderInference(ID, false, "docs_missing: 12 characters", 2, T1))
                .expectNoEvents()
                .expectResultMessagePayload(false);
        fixture.given(registered(ProviderTier.COMMUNITY, null, null), new ProviderWentOnline(ID, T0))
                .when(new RecordProviderInference(ID, true, null, 0, T1))
                .expectEvents(new ProviderInferenceWentOnline(ID, T1))
                .expectResultMessagePayload(true);
        fixture.given(registered(ProviderTier.COMMUNITY, null, null), new ProviderInferenceWentOnline(ID, T0))
                .when(new RecordProviderInference(ID, false, "chat_probe: answered HTTP 500", 2, T1))
                .expectEvents(new ProviderInferenceWentOffline(ID, "chat_probe: answered HTTP 500", 2, T1));
        fixture.given(registered(ProviderTier.COMMUNITY, null, null), new ProviderInferenceWentOnline(ID, T0))
                .when(new RecordProviderInference(ID, true, null, 0, T1))
                .expectNoEvents();
    }
}
