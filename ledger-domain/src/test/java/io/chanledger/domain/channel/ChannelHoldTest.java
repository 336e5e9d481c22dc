package io.chanledger.domain.channel;

import static io.chanledger.domain.channel.MeteredChannel.*;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A running request's hold at the provider gateway: a small one at admission (the input and a
 * small output allowance), raised by a streamed answer before it sends past it, and the room a
 * request may be charged at settlement, which no concurrent request's hold is part of.
 */
class ChannelHoldTest {

    private FixtureConfiguration<ChannelAggregate> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(ChannelAggregate.class);
    }

    private static RaiseHold raise(long nonce, long wanted) {
        return new RaiseHold(CHANNEL, units(nonce), units(wanted), NOW + 2);
    }

    private static HoldRaised raised(long nonce, long hold) {
        return new HoldRaised(CHANNEL, units(nonce), units(hold), NOW + 2);
    }

    @Test
    void aHoldIsRaisedAsFarAsWhatTheVoucherLeaves() {
        fixture.given(opened(), held(100_000, 1, 100_000, 5_000, 0))
                .when(raise(1, 20_000))
                .expectEvents(raised(1, 20_000))
                .expectResultMessagePayload(units(20_000));
    }

    @Test
    void aHoldIsRaisedNoFurtherThanTheHighestVoucherLessTheChargedTotal() {
        fixture.given(opened(), held(100_000, 1, 100_000, 5_000, 0), settled(1, 70_000, 70_000, 70_000),
                        held(100_000, 2, 0, 5_000, 70_000))
                .when(raise(2, 50_000))
                .expectEvents(raised(2, 30_000))
                .expectResultMessagePayload(units(30_000));
    }

    @Test
    void aRaisedHoldNeverTakesWhatAConcurrentRequestHolds() {
        fixture.given(opened(), held(100_000, 1, 100_000, 5_000, 0), held(100_000, 2, 0, 45_000, 0))
                .when(raise(1, 80_000))
                .expectEvents(raised(1, 55_000))
                .expectResultMessagePayload(units(55_000));
    }

    @Test
    void aHoldWithNoRoomToGrowStaysAsItIs() {
        fixture.given(opened(), held(100_000, 1, 100_000, 50_000, 0), held(100_000, 2, 0, 50_000, 0))
                .when(raise(1, 60_000))
                .expectNoEvents()
                .expectResultMessagePayload(units(50_000));
    }

    @Test
    void aSettledRequestsHoldIsNotRaised() {
        fixture.given(opened(), held(100_000, 1, 100_000, 5_000, 0), settled(1, 4_000, 4_000, 4_000))
                .when(raise(1, 20_000))
                .expectNoEvents()
                .expectResultMessagePayload(units(0));
    }

    @Test
    void whatARaisedHoldHoldsIsNotChargedToAConcurrentRequest() {
        fixture.given(opened(), held(100_000, 1, 100_000, 5_000, 0), held(100_000, 2, 0, 5_000, 0), raised(1, 60_000))
                .when(new SettleRequest(CHANNEL, units(2), units(70_000), NOW + 5))
                .expectEvents(settled(2, 70_000, 40_000, 40_000));
    }

    @Test
    void aRaisedHoldMustBeCoveredByTheNextVoucher() {
        fixture.given(opened(), held(100_000, 1, 100_000, 5_000, 0), raised(1, 60_000))
                .when(new AcceptVoucher(CHANNEL, units(104_999), units(2), SIG, CONSUMER, NOW + 3,
                        new MeteredRequest(units(45_000), HOLD_UNTIL, PROVIDER)))
                .expectException(VoucherRejectedException.class)
                .expectNoEvents();
    }

    @Test
    void aRaisedHoldIsReleasedWhenTheRequestIsSettled() {
        fixture.given(opened(), held(100_000, 1, 100_000, 5_000, 0), raised(1, 60_000), settled(1, 50_000, 50_000, 50_000))
                .when(new AcceptVoucher(CHANNEL, units(100_000), units(2), SIG, CONSUMER, NOW + 6,
                        new MeteredRequest(units(50_000), HOLD_UNTIL, PROVIDER)))
                .expectSuccessfulHandlerExecution();
    }

    @Test
    void aVoucherRefusedForLackOfFundsTellsTheRequestsHoldAndTheChargedTotal() {
        ChannelAggregate channel = new ChannelAggregate();
        channel.on(opened());
        channel.on(held(100_000, 1, 100_000, 5_000, 0));
        channel.on(settled(1, 90_000, 90_000, 90_000));

        VoucherRejectedException refused = catchThrowableOfType(VoucherRejectedException.class,
                () -> channel.handle(new AcceptVoucher(CHANNEL, units(95_000), units(2), SIG, CONSUMER, NOW + 6,
                        new MeteredRequest(units(7_000), HOLD_UNTIL, PROVIDER))));

        assertThat(refused.reason()).isEqualTo(VoucherRejection.INSUFFICIENT_FUNDS);
        assertThat(refused.required()).isEqualTo(units(100_000));
        assertThat(refused.hold()).isEqualTo(units(7_000));
        assertThat(refused.charged()).isEqualTo(units(90_000));
    }

    /**
     * A hold that lapsed before the channel's next voucher is gone with that voucher, in the
     * aggregate as in every reader of the events: its request, settled late, is not charged.
     */
    @Test
    void aRequestWhoseHoldLapsedBeforeTheNextVoucherIsNotCharged() {
        VoucherAccepted afterTheLapse = new VoucherAccepted(CHANNEL, units(200_000), units(2), SIG, units(100_000),
                HOLD_UNTIL + 1, units(5_000), HOLD_UNTIL + 601, units(0));
        fixture.given(opened(), held(100_000, 1, 100_000, 5_000, 0), afterTheLapse)
                .when(new SettleRequest(CHANNEL, units(1), units(4_000), HOLD_UNTIL + 2))
                .expectNoEvents()
                .expectResultMessagePayload(new RequestSettlement(CHANNEL, units(1), units(4_000), units(0),
                        units(0), DEPOSIT, DEPOSIT, false));
    }

    @Test
    void aNegativeCostOrHoldCannotBeAskedFor() {
        assertThatIllegalArgumentException().isThrownBy(() -> new SettleRequest(CHANNEL, units(1), units(-1), NOW));
        assertThatIllegalArgumentException().isThrownBy(() -> new RaiseHold(CHANNEL, units(1), units(-1), NOW));
        assertThatIllegalArgumentException().isThrownBy(() -> new MeteredRequest(units(-1), HOLD_UNTIL, PROVIDER));
    }
}
