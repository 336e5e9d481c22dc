package io.chanledger.domain.gasgrant;

import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.equalTo;

import java.math.BigInteger;
import java.time.Instant;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.hamcrest.FeatureMatcher;
import org.hamcrest.Matcher;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class GasGrantAggregateTest {

    private static final String WALLET = "0x5315f457a01c71a5d7ee87da126af57e8cdeda47";
    private static final String FAUCET = "0xa0ee7a142d267c1f36714e4a8f75612f20a79720";
    private static final BigInteger AMOUNT = BigInteger.TEN.pow(17);
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    private static final Instant T1 = T0.plusSeconds(5);
    private static final String TX = "0x" + "ab".repeat(32);
    private static final String OTHER_TX = "0x" + "cd".repeat(32);

    private FixtureConfiguration<GasGrantAggregate> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(GasGrantAggregate.class);
    }

    private static ReserveGasGrant reserve(String attempt) {
        return new ReserveGasGrant(WALLET, attempt, AMOUNT, T0);
    }

    private static GasGrantReserved reserved(String attempt) {
        return new GasGrantReserved(WALLET, attempt, AMOUNT, T0);
    }

    private static GasGrantSendStarted started(String attempt) {
        return new GasGrantSendStarted(WALLET, attempt, FAUCET, 7, 100);
    }

    private static GasGrantBroadcast broadcast(String attempt, String tx) {
        return new GasGrantBroadcast(WALLET, attempt, tx, 7L);
    }

    private static GasGranted granted(String attempt, String tx) {
        return new GasGranted(WALLET, attempt, tx, AMOUNT, 101, T1);
    }

    /** A failure judged on the attempt after its send started. */
    private static FailGasGrant fail(String attempt, GasGrantFailure reason, String tx) {
        return new FailGasGrant(WALLET, attempt, reason, tx, "detail", T1, true);
    }

    /** A failure judged on the attempt before its send started: the request ended there. */
    private static FailGasGrant failBeforeSend(String attempt) {
        return new FailGasGrant(WALLET, attempt, GasGrantFailure.NOT_SENT, null, "detail", T1, false);
    }

    private static Matcher<Exception> refusal(GasGrantRefusal reason) {
        return new FeatureMatcher<>(equalTo(reason), "refusal", "reason") {
            @Override
            protected GasGrantRefusal featureValueOf(Exception actual) {
                return ((GasGrantRefusedException) actual).reason();
            }
        };
    }

    private static Matcher<Exception> naming(String tx) {
        return new FeatureMatcher<>(equalTo(tx), "refusal naming", "txHash") {
            @Override
            protected String featureValueOf(Exception actual) {
                return ((GasGrantRefusedException) actual).txHash();
            }
        };
    }

    @Test
    void aFirstRequestReservesTheGrant() {
        fixture.givenNoPriorActivity()
                .when(reserve("a1"))
                .expectEvents(reserved("a1"));
    }

    @Test
    void aSecondAttemptIsRefusedWhileTheFirstIsPending() {
        fixture.given(reserved("a1"))
                .when(reserve("a2"))
                .expectException(GasGrantRefusedException.class)
                .expectException(refusal(GasGrantRefusal.GRANT_PENDING))
                .expectNoEvents();
    }

    @Test
    void aSecondAttemptIsRefusedWhileATransferIsInFlightAndNamesIt() {
        fixture.given(reserved("a1"), started("a1"), broadcast("a1", TX))
                .when(reserve("a2"))
                .expectException(allOf(refusal(GasGrantRefusal.GRANT_PENDING), naming(TX)))
                .expectNoEvents();
    }

    @Test
    void reservingAgainForTheSameAttemptRecordsNothingNew() {
        fixture.given(reserved("a1"))
                .when(reserve("a1"))
                .expectSuccessfulHandlerExecution()
                .expectNoEvents();
    }

    @Test
    void aGrantedWalletIsRefusedWithTheEarlierTransaction() {
        fixture.given(reserved("a1"), started("a1"), broadcast("a1", TX), granted("a1", TX))
                .when(reserve("a2"))
                .expectException(allOf(refusal(GasGrantRefusal.ALREADY_GRANTED), naming(TX)))
                .expectNoEvents();
    }

    @Test
    void aFailedAttemptDoesNotUseUpTheGrant() {
        fixture.given(reserved("a1"), new GasGrantFailed(WALLET, "a1", GasGrantFailure.NOT_SENT, null, "x", T1))
                .when(reserve("a2"))
                .expectEvents(reserved("a2"));
    }

    @Test
    void aReservationNeedsAPositiveAmount() {
        fixture.givenNoPriorActivity()
                .when(new ReserveGasGrant(WALLET, "a1", BigInteger.ZERO, T0))
                .expectException(refusal(GasGrantRefusal.INVALID_COMMAND))
                .expectNoEvents();
    }

    @Test
    void aReservationNeedsTheWalletsLowercaseSpelling() {
        fixture.givenNoPriorActivity()
                .when(new ReserveGasGrant("0x5315F457a01c71a5d7ee87da126af57e8cdeda47", "a1", AMOUNT, T0))
                .expectException(refusal(GasGrantRefusal.INVALID_COMMAND))
                .expectNoEvents();
    }

    @Test
    void theSendStartIsRecordedWithTheFaucetNonceBeforeSigning() {
        fixture.given(reserved("a1"))
                .when(new StartGasGrantSend(WALLET, "a1", FAUCET, 7, 100))
                .expectEvents(started("a1"));
    }

    @Test
    void onlyThePendingAttemptMayStartASend() {
        fixture.given(reserved("a1"))
                .when(new StartGasGrantSend(WALLET, "a2", FAUCET, 7, 100))
                .expectException(refusal(GasGrantRefusal.ATTEMPT_NOT_PENDING))
                .expectNoEvents();
    }

    @Test
    void anAttemptStartsItsSendOnlyOnce() {
        fixture.given(reserved("a1"), started("a1"))
                .when(new StartGasGrantSend(WALLET, "a1", FAUCET, 8, 100))
                .expectException(refusal(GasGrantRefusal.OUT_OF_ORDER))
                .expectNoEvents();
    }

    @Test
    void aBroadcastNeedsTheRecordedSendStart() {
        fixture.given(reserved("a1"))
                .when(new RecordGasGrantBroadcast(WALLET, "a1", TX, 7L))
                .expectException(refusal(GasGrantRefusal.OUT_OF_ORDER))
                .expectNoEvents();
    }

    @Test
    void theBroadcastTransactionIsRecordedOnceAndAnotherConflicts() {
        fixture.given(reserved("a1"), started("a1"))
                .when(new RecordGasGrantBroadcast(WALLET, "a1", TX, 7L))
                .expectEvents(broadcast("a1", TX));
        fixture.given(reserved("a1"), started("a1"), broadcast("a1", TX))
                .when(new RecordGasGrantBroadcast(WALLET, "a1", TX, 7L))
                .expectSuccessfulHandlerExecution()
                .expectNoEvents();
        fixture.given(reserved("a1"), started("a1"), broadcast("a1", TX))
                .when(new RecordGasGrantBroadcast(WALLET, "a1", OTHER_TX, 8L))
                .expectException(refusal(GasGrantRefusal.CONFLICTING_TRANSACTION))
                .expectNoEvents();
    }

    @Test
    void aConfirmedTransferUsesUpTheGrant() {
        fixture.given(reserved("a1"), started("a1"), broadcast("a1", TX))
                .when(new ConfirmGasGrant(WALLET, "a1", TX, 101, T1))
                .expectEvents(granted("a1", TX));
    }

    @Test
    void recoveryMayConfirmATransferFoundOnChainWhoseHashWasNeverRecorded() {
        fixture.given(reserved("a1"), started("a1"))
                .when(new ConfirmGasGrant(WALLET, "a1", TX, 101, T1))
                .expectEvents(granted("a1", TX));
    }

    @Test
    void aReservationThatNeverStartedASendCannotBeConfirmed() {
        fixture.given(reserved("a1"))
                .when(new ConfirmGasGrant(WALLET, "a1", TX, 101, T1))
                .expectException(refusal(GasGrantRefusal.OUT_OF_ORDER))
                .expectNoEvents();
    }

    @Test
    void onlyTheBroadcastTransactionCanBeConfirmed() {
        fixture.given(reserved("a1"), started("a1"), broadcast("a1", TX))
                .when(new ConfirmGasGrant(WALLET, "a1", OTHER_TX, 101, T1))
                .expectException(refusal(GasGrantRefusal.CONFLICTING_TRANSACTION))
                .expectNoEvents();
    }

    @Test
    void confirmingTheSameTransferTwiceRecordsItOnce() {
        fixture.given(reserved("a1"), started("a1"), broadcast("a1", TX), granted("a1", TX))
                .when(new ConfirmGasGrant(WALLET, "a1", TX, 101, T1))
                .expectSuccessfulHandlerExecution()
                .expectNoEvents();
    }

    @Test
    void aSecondTransferCanNeverBeConfirmedForAGrantedWallet() {
        fixture.given(reserved("a1"), started("a1"), broadcast("a1", TX), granted("a1", TX))
                .when(new ConfirmGasGrant(WALLET, "a1", OTHER_TX, 102, T1))
                .expectException(allOf(refusal(GasGrantRefusal.CONFLICTING_TRANSACTION), naming(TX)))
                .expectNoEvents();
    }

    @Test
    void aConfirmedGrantIsNeverFailed() {
        fixture.given(reserved("a1"), started("a1"), broadcast("a1", TX), granted("a1", TX))
                .when(fail("a1", GasGrantFailure.DROPPED, TX))
                .expectException(refusal(GasGrantRefusal.ALREADY_GRANTED))
                .expectNoEvents();
    }

    @Test
    void aSendRefusedBeforeBroadcastReleasesTheGrant() {
        fixture.given(reserved("a1"), started("a1"))
                .when(fail("a1", GasGrantFailure.NOT_SENT, null))
                .expectEvents(new GasGrantFailed(WALLET, "a1", GasGrantFailure.NOT_SENT, null, "detail", T1));
    }

    @Test
    void aReservationAbandonedBeforeItsSendReleasesTheGrant() {
        fixture.given(reserved("a1"))
                .when(failBeforeSend("a1"))
                .expectEvents(new GasGrantFailed(WALLET, "a1", GasGrantFailure.NOT_SENT, null, "detail", T1));
    }

    @Test
    void aFailureJudgedBeforeTheSendStartedCannotReleaseAnAttemptWhoseSendHasStarted() {
        // a recovery that read the attempt from a read model still showing it reserved
        fixture.given(reserved("a1"), started("a1"))
                .when(failBeforeSend("a1"))
                .expectException(refusal(GasGrantRefusal.FAILURE_NOT_PROVEN))
                .expectNoEvents();
        fixture.given(reserved("a1"), started("a1"), broadcast("a1", TX))
                .when(failBeforeSend("a1"))
                .expectException(refusal(GasGrantRefusal.FAILURE_NOT_PROVEN))
                .expectNoEvents();
    }

    @Test
    void aFailureJudgedAfterTheSendStartedCannotReleaseAnAttemptOnlyReserved() {
        fixture.given(reserved("a1"))
                .when(fail("a1", GasGrantFailure.NOT_SENT, null))
                .expectException(refusal(GasGrantRefusal.FAILURE_NOT_PROVEN))
                .expectNoEvents();
    }

    @Test
    void onceAHashIsKnownNotSentIsNoReasonToRelease() {
        fixture.given(reserved("a1"), started("a1"), broadcast("a1", TX))
                .when(fail("a1", GasGrantFailure.NOT_SENT, null))
                .expectException(refusal(GasGrantRefusal.FAILURE_NOT_PROVEN))
                .expectNoEvents();
    }

    @Test
    void aBroadcastTransferIsReleasedWhenReplacedDroppedOrReverted() {
        for (GasGrantFailure reason : new GasGrantFailure[] {
                GasGrantFailure.REPLACED, GasGrantFailure.DROPPED, GasGrantFailure.REVERTED}) {
            fixture.given(reserved("a1"), started("a1"), broadcast("a1", TX))
                    .when(fail("a1", reason, null))
                    .expectEvents(new GasGrantFailed(WALLET, "a1", reason, TX, "detail", T1));
        }
    }

    @Test
    void withoutAKnownHashOnlyARevertedTransferFoundOnChainOrNothingSentReleases() {
        fixture.given(reserved("a1"), started("a1"))
                .when(fail("a1", GasGrantFailure.DROPPED, null))
                .expectException(refusal(GasGrantRefusal.FAILURE_NOT_PROVEN));
        fixture.given(reserved("a1"), started("a1"))
                .when(fail("a1", GasGrantFailure.REVERTED, null))
                .expectException(refusal(GasGrantRefusal.FAILURE_NOT_PROVEN));
        fixture.given(reserved("a1"), started("a1"))
                .when(fail("a1", GasGrantFailure.REVERTED, TX))
                .expectEvents(new GasGrantFailed(WALLET, "a1", GasGrantFailure.REVERTED, TX, "detail", T1));
    }

    @Test
    void aRevertOfAnotherTransactionThanTheBroadcastOneIsRefused() {
        fixture.given(reserved("a1"), started("a1"), broadcast("a1", TX))
                .when(fail("a1", GasGrantFailure.REVERTED, OTHER_TX))
                .expectException(refusal(GasGrantRefusal.FAILURE_NOT_PROVEN))
                .expectNoEvents();
    }

    @Test
    void failingAnAttemptTwiceRecordsItOnce() {
        fixture.given(reserved("a1"), started("a1"), new GasGrantFailed(WALLET, "a1", GasGrantFailure.NOT_SENT, null, "x", T1))
                .when(fail("a1", GasGrantFailure.NOT_SENT, null))
                .expectSuccessfulHandlerExecution()
                .expectNoEvents();
    }

    @Test
    void aStaleAttemptCannotFailTheNextOne() {
        fixture.given(reserved("a1"), new GasGrantFailed(WALLET, "a1", GasGrantFailure.NOT_SENT, null, "x", T1),
                        reserved("a2"))
                .when(failBeforeSend("a1"))
                .expectException(refusal(GasGrantRefusal.ATTEMPT_NOT_PENDING))
                .expectNoEvents();
    }

    @Test
    void aStaleAttemptCannotConfirmForTheNextOne() {
        fixture.given(reserved("a1"), new GasGrantFailed(WALLET, "a1", GasGrantFailure.NOT_SENT, null, "x", T1),
                        reserved("a2"), started("a2"))
                .when(new ConfirmGasGrant(WALLET, "a1", TX, 101, T1))
                .expectException(refusal(GasGrantRefusal.ATTEMPT_NOT_PENDING))
                .expectNoEvents();
    }

    @Test
    void aTransferMinedAfterItsAttemptWasReleasedAsDroppedStillUsesUpTheGrant() {
        fixture.given(reserved("a1"), started("a1"), broadcast("a1", TX),
                        new GasGrantFailed(WALLET, "a1", GasGrantFailure.DROPPED, TX, "x", T1))
                .when(new ConfirmGasGrant(WALLET, "a1", TX, 140, T1))
                .expectEvents(new GasGranted(WALLET, "a1", TX, AMOUNT, 140, T1));
    }

    @Test
    void aTransferFoundAfterItsAttemptWasReleasedAsNotSentStillUsesUpTheGrant() {
        fixture.given(reserved("a1"), started("a1"),
                        new GasGrantFailed(WALLET, "a1", GasGrantFailure.NOT_SENT, null, "x", T1))
                .when(new ConfirmGasGrant(WALLET, "a1", TX, 140, T1))
                .expectEvents(new GasGranted(WALLET, "a1", TX, AMOUNT, 140, T1));
    }

    @Test
    void aRevertedOrReplacedAttemptIsNeverConfirmedLater() {
        for (GasGrantFailure reason : new GasGrantFailure[] {GasGrantFailure.REVERTED, GasGrantFailure.REPLACED}) {
            fixture.given(reserved("a1"), started("a1"), broadcast("a1", TX),
                            new GasGrantFailed(WALLET, "a1", reason, TX, "x", T1))
                    .when(new ConfirmGasGrant(WALLET, "a1", TX, 140, T1))
                    .expectException(refusal(GasGrantRefusal.ATTEMPT_NOT_PENDING))
                    .expectNoEvents();
        }
    }

    @Test
    void nothingButAReservationCreatesAGrant() {
        fixture.givenNoPriorActivity()
                .when(new StartGasGrantSend(WALLET, "a1", FAUCET, 7, 100))
                .expectException(AggregateNotFoundException.class);
    }
}
