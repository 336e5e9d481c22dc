package io.chanledger.domain.channel;

import static io.chanledger.domain.channel.MeteredChannel.*;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.equalTo;

import java.math.BigInteger;
import java.util.List;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.axonframework.test.aggregate.TestExecutor;
import org.hamcrest.FeatureMatcher;
import org.hamcrest.Matcher;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Channel aggregate's metering rules: vouchers that pay for requests at the provider gateway. */
class ChannelMeteringTest {

    private FixtureConfiguration<ChannelAggregate> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(ChannelAggregate.class);
    }

    private static SettleRequest settle(long nonce, long cost) {
        return new SettleRequest(CHANNEL, units(nonce), units(cost), NOW + 5);
    }

    @Test
    void aMeteredVoucherCoveringItsRequestIsAcceptedWithTheHoldAndTheChargedTotal() {
        fixture.given(opened())
                .when(paying(100_000, 1, 40_000))
                .expectEvents(held(100_000, 1, 100_000, 40_000, 0))
                .expectResultMessagePayload(new VoucherReceipt(CHANNEL, units(100_000), units(1), units(100_000),
                        DEPOSIT, DEPOSIT.subtract(units(100_000)), ChannelStatus.OPEN, false, units(0), units(40_000),
                        units(100_000)));
    }

    @Test
    void aMeteredVoucherMustCoverTheChargedTotalAndItsRequest() {
        rejectsForLackOfFunds(fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0), settled(1, 90_000, 90_000, 90_000)),
                paying(120_000, 2, 40_000), 130_000);
    }

    @Test
    void aRunningRequestsHoldCannotBeSpentByAConcurrentOne() {
        rejectsForLackOfFunds(fixture.given(opened(), held(100_000, 1, 100_000, 60_000, 0)),
                paying(100_000, 2, 50_000), 110_000);
    }

    @Test
    void aConcurrentRequestIsAcceptedWhenTheVoucherCoversBothHolds() {
        fixture.given(opened(), held(100_000, 1, 100_000, 60_000, 0))
                .when(paying(110_000, 2, 50_000))
                .expectEvents(held(110_000, 2, 10_000, 50_000, 0))
                .expectResultMessagePayload(new VoucherReceipt(CHANNEL, units(110_000), units(2), units(10_000),
                        DEPOSIT, DEPOSIT.subtract(units(110_000)), ChannelStatus.OPEN, false, units(0), units(50_000),
                        units(50_000)));
    }

    @Test
    void aHoldPastItsTimeNoLongerBlocksTheChannel() {
        fixture.given(opened(), held(100_000, 1, 100_000, 60_000, 0))
                .when(paying(100_000, 2, 50_000, HOLD_UNTIL))
                .expectSuccessfulHandlerExecution();
    }

    @Test
    void aMeteredVoucherMayRepeatTheHighestAmountWhileItsBufferCovers() {
        fixture.given(opened(), held(500_000, 1, 500_000, 40_000, 0), settled(1, 30_000, 30_000, 30_000))
                .when(paying(500_000, 2, 40_000))
                .expectEvents(held(500_000, 2, 0, 40_000, 30_000));
    }

    @Test
    void aMeteredVoucherBelowTheHighestAcceptedOneIsRefusedWithTheHighestAsRequired() {
        rejectsForLackOfFunds(fixture.given(opened(), held(500_000, 1, 500_000, 40_000, 0), settled(1, 30_000, 30_000, 30_000)),
                paying(400_000, 2, 40_000), 500_000);
    }

    @Test
    void aReplayedMeteredVoucherPaysForNoSecondRequest() {
        rejects(fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0), settled(1, 30_000, 30_000, 30_000)),
                paying(100_000, 1, 40_000), VoucherRejection.NONCE_NOT_INCREASING);
    }

    /**
     * A voucher that paid for a request is not remembered for re-sending, so sent again as a plain
     * voucher it is refused like any voucher not above the highest, rather than answered as a
     * duplicate: its answer was the request, which is never served twice.
     */
    @Test
    void aMeteredVoucherSentAgainAsAPlainOneIsRefusedAsNotAboveTheHighest() {
        rejects(fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0), settled(1, 30_000, 30_000, 30_000)),
                new AcceptVoucher(CHANNEL, units(100_000), units(1), SIG, CONSUMER, NOW + 6),
                VoucherRejection.AMOUNT_NOT_INCREASING);
    }

    @Test
    void aMeteredVoucherNeedsANewNonce() {
        rejects(fixture.given(opened(), held(100_000, 3, 100_000, 40_000, 0)),
                paying(200_000, 2, 40_000), VoucherRejection.NONCE_NOT_INCREASING);
    }

    @Test
    void aMeteredVoucherAboveTheDepositIsRefused() {
        rejects(fixture.given(opened()), paying(10_000_001, 1, 40_000), VoucherRejection.EXCEEDS_DEPOSIT);
    }

    @Test
    void aMeteredVoucherSignedByAStrangerIsRefusedLikeAnyOther() {
        rejects(fixture.given(opened()), new AcceptVoucher(CHANNEL, units(1), units(1), SIG,
                "0xd118fbf078839459c5f6ec1dcc7d8bcd0850aff1", NOW, new MeteredRequest(units(1), HOLD_UNTIL, PROVIDER)),
                VoucherRejection.WRONG_SIGNER);
    }

    @Test
    void aMeteredVoucherForAnotherProvidersChannelIsRefused() {
        rejects(fixture.given(opened()), new AcceptVoucher(CHANNEL, units(100_000), units(1), SIG, CONSUMER, NOW,
                new MeteredRequest(units(1), HOLD_UNTIL, "0x" + "12".repeat(20))), VoucherRejection.WRONG_PROVIDER);
    }

    @Test
    void noRequestIsPaidForAfterTheProviderAuthorisedTheClose() {
        rejects(fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0), settled(1, 30_000, 30_000, 30_000),
                        new CloseAuthorized(CHANNEL, units(30_000), SIG)),
                paying(200_000, 2, 40_000), VoucherRejection.CHANNEL_CLOSING);
    }

    @Test
    void settlingChargesTheCostAndReleasesTheHold() {
        fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0))
                .when(settle(1, 35_000))
                .expectEvents(settled(1, 35_000, 35_000, 35_000))
                .expectResultMessagePayload(new RequestSettlement(CHANNEL, units(1), units(35_000), units(35_000),
                        units(35_000), DEPOSIT, DEPOSIT.subtract(units(35_000)), true));
    }

    @Test
    void aCostAboveTheHoldIsChargedWhenTheVouchedAmountCoversIt() {
        fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0))
                .when(settle(1, 90_000))
                .expectEvents(settled(1, 90_000, 90_000, 90_000));
    }

    @Test
    void aCostAboveWhatTheVoucherCoversIsChargedOnlyUpToTheVouchedAmount() {
        fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0))
                .when(settle(1, 130_000))
                .expectEvents(settled(1, 130_000, 100_000, 100_000))
                .expectResultMessagePayload(new RequestSettlement(CHANNEL, units(1), units(130_000), units(100_000),
                        units(100_000), DEPOSIT, DEPOSIT.subtract(units(100_000)), true));
    }

    @Test
    void aSettledRequestNeverEatsIntoAnotherRunningRequestsHold() {
        fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0), held(150_000, 2, 50_000, 60_000, 0))
                .when(settle(1, 120_000))
                .expectEvents(settled(1, 120_000, 90_000, 90_000));
    }

    @Test
    void aFailedRequestIsSettledWithoutMovingTheChargedTotal() {
        fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0), settled(1, 30_000, 30_000, 30_000),
                        held(200_000, 2, 100_000, 40_000, 30_000))
                .when(settle(2, 0))
                .expectEvents(settled(2, 0, 0, 30_000));
    }

    @Test
    void settlingTheSameRequestTwiceChargesOnce() {
        fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0), settled(1, 30_000, 30_000, 30_000))
                .when(settle(1, 30_000))
                .expectNoEvents()
                .expectResultMessagePayload(new RequestSettlement(CHANNEL, units(1), units(30_000), units(0),
                        units(30_000), DEPOSIT, DEPOSIT.subtract(units(30_000)), false));
    }

    @Test
    void aPlainVoucherHoldsNothingAndCannotBeSettled() {
        fixture.given(opened(), new VoucherAccepted(CHANNEL, units(100_000), units(1), SIG, units(100_000), NOW))
                .when(settle(1, 30_000))
                .expectNoEvents();
    }

    @Test
    void closeAuthorizationBelowTheChargedTotalIsRefused() {
        fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0), settled(1, 30_000, 30_000, 30_000))
                .when(new AuthorizeClose(CHANNEL, units(29_999), SIG, NOW + 10, true, 0))
                .expectException(CloseAuthorizationRejectedException.class)
                .expectNoEvents();
    }

    @Test
    void closeAuthorizationWaitsForRunningRequests() {
        fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0))
                .when(new AuthorizeClose(CHANNEL, units(0), SIG, NOW + 10, true, 0))
                .expectException(CloseAuthorizationRejectedException.class)
                .expectNoEvents();
    }

    @Test
    void closeAuthorizationAtTheChargedTotalIsRecordedOnceTheRequestsAreSettled() {
        fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0), settled(1, 30_000, 30_000, 30_000))
                .when(new AuthorizeClose(CHANNEL, units(30_000), SIG, NOW + 10, true, 0))
                .expectEvents(new CloseAuthorized(CHANNEL, units(30_000), SIG));
    }

    @Test
    void closeAuthorizationIsNotBlockedByAHoldPastItsTime() {
        fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0))
                .when(new AuthorizeClose(CHANNEL, units(0), SIG, HOLD_UNTIL, true, 0))
                .expectEvents(new CloseAuthorized(CHANNEL, units(0), SIG));
    }

    @Test
    void theReplayedStateCarriesTheChargedTotal() {
        ChannelState state = ChannelState.replay(List.of(opened(), held(100_000, 1, 100_000, 40_000, 0),
                settled(1, 30_000, 30_000, 30_000), held(100_000, 2, 0, 40_000, 30_000), settled(2, 25_000, 25_000, 55_000)));

        assertThat(state.chargedTotal()).isEqualTo(units(55_000));
        assertThat(state.unchargedDeposit()).isEqualTo(DEPOSIT.subtract(units(55_000)));
        assertThat(state.highestAmount()).isEqualTo(units(100_000));
        assertThat(state.voucherCount()).isEqualTo(2);
    }

    @Test
    void aChannelWithoutMeteredVouchersHasChargedNothing() {
        ChannelState state = ChannelState.replay(List.of(opened(),
                new VoucherAccepted(CHANNEL, units(100_000), units(1), SIG, units(100_000), NOW)));

        assertThat(state.chargedTotal()).isZero();
    }

    private static void rejects(TestExecutor<ChannelAggregate> given, AcceptVoucher command, VoucherRejection reason) {
        given.when(command).expectException(reason(reason)).expectNoEvents();
    }

    private static void rejectsForLackOfFunds(TestExecutor<ChannelAggregate> given, AcceptVoucher command,
                                              long required) {
        given.when(command)
                .expectException(allOf(reason(VoucherRejection.INSUFFICIENT_FUNDS),
                        new FeatureMatcher<Object, BigInteger>(equalTo(units(required)), "required amount", "required") {
                            @Override
                            protected BigInteger featureValueOf(Object actual) {
                                return actual instanceof VoucherRejectedException rejected ? rejected.required() : null;
                            }
                        }))
                .expectNoEvents();
    }

    private static Matcher<Object> reason(VoucherRejection reason) {
        return new FeatureMatcher<Object, VoucherRejection>(equalTo(reason), "rejection reason", "reason") {
            @Override
            protected VoucherRejection featureValueOf(Object actual) {
                return actual instanceof VoucherRejectedException rejected ? rejected.reason() : null;
            }
        };
    }
}
