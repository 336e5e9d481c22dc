package io.chanledger.domain.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.chanledger.domain.chain.ChainRef;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.axonframework.test.aggregate.TestExecutor;
import org.hamcrest.FeatureMatcher;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ChannelAggregateTest {

    private static final String CHANNEL = "0x823da9a7690a95c075e42809132b9efebb72c0f77beca597e756b6033b7c036a";
    private static final String CONSUMER = "0x5315f457a01c71a5d7ee87da126af57e8cdeda47";
    private static final String PROVIDER = "0x888a81f924fee3dd0be6367484caa4e91ad34a3f";
    private static final String STRANGER = "0xd118fbf078839459c5f6ec1dcc7d8bcd0850aff1";
    private static final BigInteger DEPOSIT = BigInteger.valueOf(10_000_000);
    private static final long EXPIRY = 1_700_086_400L;
    private static final long BEFORE_EXPIRY = EXPIRY - 3_600;
    private static final ChainRef OPEN_REF = ref(100, 0);
    private static final String SIG = "0x" + "ab".repeat(65);

    private FixtureConfiguration<ChannelAggregate> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(ChannelAggregate.class);
    }

    private static ChainRef ref(long block, int logIndex) {
        return new ChainRef(block, "0x" + String.format("%064x", block), "0x" + String.format("%064x", block * 1000 + logIndex), logIndex);
    }

    private static BigInteger units(long value) {
        return BigInteger.valueOf(value);
    }

    private static ChannelOpened opened() {
        return new ChannelOpened(CHANNEL, CONSUMER, PROVIDER, DEPOSIT, EXPIRY, OPEN_REF, false, BigInteger.ZERO);
    }

    private static AcceptVoucher voucher(long amount, long nonce) {
        return new AcceptVoucher(CHANNEL, units(amount), units(nonce), SIG, CONSUMER, BEFORE_EXPIRY);
    }

    private static VoucherAccepted accepted(long amount, long nonce, long increment) {
        return new VoucherAccepted(CHANNEL, units(amount), units(nonce), SIG, units(increment), BEFORE_EXPIRY);
    }

    @Test
    void openingRecordsTheChannelWithItsChainRef() {
        fixture.givenNoPriorActivity()
                .when(new OpenChannel(CHANNEL, CONSUMER, PROVIDER, DEPOSIT, EXPIRY, OPEN_REF))
                .expectSuccessfulHandlerExecution()
                .expectEvents(opened());
    }

    @Test
    void theSameOpenLogAppliedTwiceChangesNothing() {
        fixture.given(opened())
                .when(new OpenChannel(CHANNEL, CONSUMER, PROVIDER, DEPOSIT, EXPIRY, OPEN_REF))
                .expectSuccessfulHandlerExecution()
                .expectNoEvents();
    }

    @Test
    void aSecondOpenLogForTheSameChannelIsAConflict() {
        fixture.given(opened())
                .when(new OpenChannel(CHANNEL, CONSUMER, PROVIDER, DEPOSIT, EXPIRY, ref(101, 0)))
                .expectException(ChainFactConflictException.class)
                .expectNoEvents();
    }

    @Test
    void aProvisionalChannelIsConfirmedByItsLogWithoutASecondOpening() {
        fixture.given(new ChannelOpened(CHANNEL, CONSUMER, PROVIDER, DEPOSIT, EXPIRY, null, true, BigInteger.ZERO))
                .when(new OpenChannel(CHANNEL, CONSUMER, PROVIDER, DEPOSIT, EXPIRY, OPEN_REF))
                .expectEvents(new ChannelOpenConfirmed(CHANNEL, CONSUMER, PROVIDER, DEPOSIT, EXPIRY, OPEN_REF));
    }

    @Test
    void theContractsViewOfAKnownChannelAddsNothing() {
        fixture.given(opened())
                .when(voucher(250_000, 1).openingFrom(onChain(BigInteger.ZERO)))
                .expectEvents(accepted(250_000, 1, 250_000));
    }

    @Test
    void aVoucherForAChannelOnlyTheContractKnowsOpensItAndIsJudgedInOneDecision() {
        fixture.givenNoPriorActivity()
                .when(voucher(400_000, 1).openingFrom(onChain(units(300_000))))
                .expectEvents(new ChannelOpened(CHANNEL, CONSUMER, PROVIDER, DEPOSIT, EXPIRY, null, true,
                                units(300_000)),
                        accepted(400_000, 1, 400_000));
    }

    @Test
    void aVoucherForAChannelOnlyTheContractKnowsMustExceedWhatTheContractPaidOut() {
        rejects(fixture.givenNoPriorActivity(), voucher(300_000, 1).openingFrom(onChain(units(300_000))),
                VoucherRejection.AMOUNT_NOT_INCREASING);
    }

    private static OnChainChannel onChain(BigInteger claimed) {
        return new OnChainChannel(CONSUMER, PROVIDER, DEPOSIT, claimed, EXPIRY, 120);
    }

    @Test
    void acceptsTheFirstVoucherSignedByTheConsumer() {
        fixture.given(opened())
                .when(voucher(250_000, 1))
                .expectEvents(accepted(250_000, 1, 250_000))
                .expectResultMessagePayload(new VoucherReceipt(CHANNEL, units(250_000), units(1), units(250_000),
                        DEPOSIT, DEPOSIT.subtract(units(250_000)), ChannelStatus.OPEN, false));
    }

    @Test
    void acceptsAVoucherOfExactlyTheDeposit() {
        fixture.given(opened())
                .when(voucher(10_000_000, 1))
                .expectEvents(accepted(10_000_000, 1, 10_000_000));
    }

    @Test
    void theIncrementIsMeasuredFromTheHighestAcceptedVoucher() {
        fixture.given(opened(), accepted(250_000, 1, 250_000))
                .when(voucher(400_000, 2))
                .expectEvents(accepted(400_000, 2, 150_000));
    }

    @Test
    void resendingTheAcceptedVoucherAnswersAsTheFirstTimeAndRecordsNothing() {
        fixture.given(opened(), accepted(250_000, 1, 250_000), accepted(400_000, 2, 150_000))
                .when(voucher(250_000, 1))
                .expectNoEvents()
                .expectResultMessagePayload(new VoucherReceipt(CHANNEL, units(250_000), units(1), units(250_000),
                        DEPOSIT, DEPOSIT.subtract(units(250_000)), ChannelStatus.OPEN, true));
    }

    /** The channel's last {@link ChannelAggregate#REMEMBERED_VOUCHERS} vouchers are answered again; an older one is not. */
    @Test
    void theLastRememberedVouchersAreAnsweredAgainAndAnOlderOneIsRefused() {
        int remembered = ChannelAggregate.REMEMBERED_VOUCHERS;
        Object[] history = new Object[remembered + 2];
        history[0] = opened();
        for (int nonce = 1; nonce <= remembered + 1; nonce++) {
            history[nonce] = accepted(1_000L * nonce, nonce, 1_000);
        }
        fixture.given(history).when(voucher(2_000, 2)).expectNoEvents()
                .expectResultMessagePayload(new VoucherReceipt(CHANNEL, units(2_000), units(2), units(1_000),
                        DEPOSIT, DEPOSIT.subtract(units(2_000)), ChannelStatus.OPEN, true));
        rejects(new AggregateTestFixture<>(ChannelAggregate.class).given(history), voucher(1_000, 1),
                VoucherRejection.AMOUNT_NOT_INCREASING);
    }

    /** docs/api.md says how many vouchers are answered again: the same number as the aggregate. */
    @Test
    void theApiReferenceStatesHowManyVouchersAreAnsweredAgain() throws IOException {
        String reference = Files.readString(Path.of("..", "docs", "api.md"));
        assertThat(reference)
                .contains("channel's last " + ChannelAggregate.REMEMBERED_VOUCHERS + " vouchers accepted here");
    }

    @Test
    void unknownChannelAcceptsNoVoucher() {
        rejects(fixture.givenNoPriorActivity(), voucher(1, 1), VoucherRejection.CHANNEL_NOT_FOUND);
    }

    @Test
    void aVoucherWithANegativeAmountCannotExist() {
        assertEquals(VoucherRejection.INVALID_VOUCHER_FORMAT, assertThrows(VoucherRejectedException.class,
                () -> new AcceptVoucher(CHANNEL, units(-1), units(1), SIG, CONSUMER, BEFORE_EXPIRY)).reason());
    }

    @Test
    void aVoucherWithANonceAboveUint256CannotExist() {
        assertEquals(VoucherRejection.INVALID_VOUCHER_FORMAT, assertThrows(VoucherRejectedException.class,
                () -> new AcceptVoucher(CHANNEL, units(1), BigInteger.ONE.shiftLeft(256), SIG, CONSUMER,
                        BEFORE_EXPIRY)).reason());
    }

    @Test
    void closedChannelAcceptsNoVoucher() {
        rejects(fixture.given(opened(), new ChannelClosed(CHANNEL, DEPOSIT, CloseKind.COOPERATIVE, ref(110, 0))),
                voucher(1, 1), VoucherRejection.CHANNEL_CLOSED);
    }

    @Test
    void expiredChannelAcceptsNoVoucher() {
        rejects(fixture.given(opened(), new ChannelExpired(CHANNEL, EXPIRY, EXPIRY + 2, 140)),
                voucher(1, 1), VoucherRejection.CHANNEL_EXPIRED);
    }

    @Test
    void aVoucherReceivedAtTheExpiryIsRefusedEvenBeforeTheChainSaysSo() {
        rejects(fixture.given(opened()),
                new AcceptVoucher(CHANNEL, units(1), units(1), SIG, CONSUMER, EXPIRY), VoucherRejection.CHANNEL_EXPIRED);
    }

    @Test
    void rejectsVoucherSignedByAStranger() {
        rejects(fixture.given(opened()),
                new AcceptVoucher(CHANNEL, units(1), units(1), SIG, STRANGER, BEFORE_EXPIRY), VoucherRejection.WRONG_SIGNER);
    }

    @Test
    void aVoucherIsNotJudgedWithoutARecoveredSigner() {
        assertThrows(NullPointerException.class,
                () -> new AcceptVoucher(CHANNEL, units(1), units(1), SIG, null, BEFORE_EXPIRY));
    }

    @Test
    void rejectsAnAmountAboveTheDeposit() {
        rejects(fixture.given(opened()),
                voucher(10_000_001, 1), VoucherRejection.EXCEEDS_DEPOSIT);
    }

    @Test
    void rejectsAnAmountThatDoesNotIncrease() {
        rejects(fixture.given(opened(), accepted(250_000, 1, 250_000)),
                voucher(250_000, 2), VoucherRejection.AMOUNT_NOT_INCREASING);
    }

    @Test
    void rejectsAnAmountNotAboveWhatWasAlreadyClaimed() {
        rejects(fixture.given(opened(), new ChannelClaimed(CHANNEL, PROVIDER, units(500_000), units(10_000), units(500_000), ref(105, 1))),
                voucher(500_000, 1), VoucherRejection.AMOUNT_NOT_INCREASING);
    }

    @Test
    void rejectsAnAmountNotAboveWhatTheContractHadPaidWhenTheChannelWasLookedUp() {
        rejects(fixture.given(new ChannelOpened(CHANNEL, CONSUMER, PROVIDER, DEPOSIT, EXPIRY, null, true, units(300_000))),
                voucher(300_000, 1), VoucherRejection.AMOUNT_NOT_INCREASING);
    }

    @Test
    void rejectsANonceThatDoesNotIncrease() {
        rejects(fixture.given(opened(), accepted(250_000, 5, 250_000)),
                voucher(300_000, 5), VoucherRejection.NONCE_NOT_INCREASING);
    }

    @Test
    void aVoucherWithTheSameNonceButAnotherAmountIsNotADuplicate() {
        rejects(fixture.given(opened(), accepted(250_000, 1, 250_000)),
                voucher(300_000, 1), VoucherRejection.NONCE_NOT_INCREASING);
    }

    @Test
    void aClaimRecordsPayoutFeeAndTheNewTotal() {
        fixture.given(opened(), accepted(1_000_000, 1, 1_000_000))
                .when(new RecordClaim(CHANNEL, units(600_000), units(12_000), ref(105, 1)))
                .expectEvents(new ChannelClaimed(CHANNEL, PROVIDER, units(600_000), units(12_000), units(600_000), ref(105, 1)));
    }

    @Test
    void theSameClaimLogAppliedTwiceChangesNothing() {
        fixture.given(opened(), new ChannelClaimed(CHANNEL, PROVIDER, units(600_000), units(12_000), units(600_000), ref(105, 1)))
                .when(new RecordClaim(CHANNEL, units(600_000), units(12_000), ref(105, 1)))
                .expectNoEvents();
    }

    @Test
    void aClaimAboveTheDepositIsAConflictNotAFact() {
        fixture.given(opened(), new ChannelClaimed(CHANNEL, PROVIDER, units(9_000_000), units(0), units(9_000_000), ref(105, 1)))
                .when(new RecordClaim(CHANNEL, units(1_000_001), units(0), ref(106, 1)))
                .expectException(ChainFactConflictException.class)
                .expectNoEvents();
    }

    @Test
    void aClaimWithAFeeAboveThePayoutIsAConflict() {
        fixture.given(opened())
                .when(new RecordClaim(CHANNEL, units(10), units(11), ref(106, 1)))
                .expectException(ChainFactConflictException.class);
    }

    @Test
    void expiryIsRecordedOnceTheChainTimePassesIt() {
        fixture.given(opened())
                .when(new ExpireChannel(CHANNEL, EXPIRY, 150))
                .expectEvents(new ChannelExpired(CHANNEL, EXPIRY, EXPIRY, 150));
    }

    @Test
    void expiryIsRecordedOnlyOnce() {
        fixture.given(opened(), new ChannelExpired(CHANNEL, EXPIRY, EXPIRY, 150))
                .when(new ExpireChannel(CHANNEL, EXPIRY + 60, 155))
                .expectNoEvents();
    }

    @Test
    void expiryBeforeTheChainTimeReachedItIsRefused() {
        fixture.given(opened())
                .when(new ExpireChannel(CHANNEL, EXPIRY - 1, 150))
                .expectException(ChainFactConflictException.class);
    }

    @Test
    void anExpiredChannelCanStillBeClaimed() {
        fixture.given(opened(), accepted(1_000_000, 1, 1_000_000), new ChannelExpired(CHANNEL, EXPIRY, EXPIRY, 150))
                .when(new RecordClaim(CHANNEL, units(1_000_000), units(20_000), ref(151, 0)))
                .expectEvents(new ChannelClaimed(CHANNEL, PROVIDER, units(1_000_000), units(20_000), units(1_000_000), ref(151, 0)));
    }

    @Test
    void closeAfterExpiryRefundsWhatWasNotClaimed() {
        fixture.given(opened(), new ChannelClaimed(CHANNEL, PROVIDER, units(1_000_000), units(20_000), units(1_000_000), ref(151, 0)),
                        new ChannelExpired(CHANNEL, EXPIRY, EXPIRY, 152))
                .when(new RecordClose(CHANNEL, units(9_000_000), CloseKind.AFTER_EXPIRY, ref(160, 0)))
                .expectEvents(new ChannelClosed(CHANNEL, units(9_000_000), CloseKind.AFTER_EXPIRY, ref(160, 0)));
    }

    @Test
    void aRefundOtherThanDepositMinusClaimedIsAConflict() {
        fixture.given(opened())
                .when(new RecordClose(CHANNEL, units(1), CloseKind.AFTER_EXPIRY, ref(160, 0)))
                .expectException(ChainFactConflictException.class)
                .expectNoEvents();
    }

    @Test
    void theSameCloseLogAppliedTwiceChangesNothing() {
        fixture.given(opened(), new ChannelClosed(CHANNEL, DEPOSIT, CloseKind.COOPERATIVE, ref(160, 0)))
                .when(new RecordClose(CHANNEL, DEPOSIT, CloseKind.COOPERATIVE, ref(160, 0)))
                .expectNoEvents();
    }

    @Test
    void closeAuthorizationBetweenClaimedAndDepositIsRecorded() {
        fixture.given(opened(), accepted(700_000, 3, 700_000))
                .when(new AuthorizeClose(CHANNEL, units(700_000), SIG))
                .expectEvents(new CloseAuthorized(CHANNEL, units(700_000), SIG));
    }

    @Test
    void closeAuthorizationBelowTheClaimedAmountIsRefused() {
        fixture.given(opened(), new ChannelClaimed(CHANNEL, PROVIDER, units(500_000), units(10_000), units(500_000), ref(105, 1)))
                .when(new AuthorizeClose(CHANNEL, units(499_999), SIG))
                .expectException(CloseAuthorizationRejectedException.class);
    }

    @Test
    void aReturnOfTheExcessClaimedIsRecordedForTheConsumer() {
        fixture.given(opened(), new ChannelClaimed(CHANNEL, PROVIDER, units(600_000), units(12_000), units(600_000), ref(105, 1)))
                .when(new RecordExcessReturn(CHANNEL, units(40_000), ref(120, 3)))
                .expectEvents(new ExcessReturned(CHANNEL, CONSUMER, units(40_000), ref(120, 3)));
    }

    @Test
    void theSameReturnRecordedTwiceChangesNothing() {
        fixture.given(opened(), new ExcessReturned(CHANNEL, CONSUMER, units(40_000), ref(120, 3)))
                .when(new RecordExcessReturn(CHANNEL, units(40_000), ref(120, 3)))
                .expectNoEvents();
    }

    /** A return is not a log of the channel contract: one mined before a claim the listener records later leaves that claim recorded. */
    @Test
    void aReturnDoesNotHideALaterRecordedClaimThatCameBeforeIt() {
        fixture.given(opened(), new ExcessReturned(CHANNEL, CONSUMER, units(40_000), ref(120, 3)))
                .when(new RecordClaim(CHANNEL, units(600_000), units(12_000), ref(110, 1)))
                .expectEvents(new ChannelClaimed(CHANNEL, PROVIDER, units(600_000), units(12_000), units(600_000), ref(110, 1)));
    }

    /** The rejection must carry the named reason: any other rejection would not do. */
    private static void rejects(TestExecutor<ChannelAggregate> given, AcceptVoucher command, VoucherRejection reason) {
        given.when(command)
                .expectException(new FeatureMatcher<Object, VoucherRejection>(
                        equalTo(reason), "rejection reason", "reason") {
                    @Override
                    protected VoucherRejection featureValueOf(Object actual) {
                        return actual instanceof VoucherRejectedException rejected ? rejected.reason() : null;
                    }
                })
                .expectNoEvents();
    }
}
