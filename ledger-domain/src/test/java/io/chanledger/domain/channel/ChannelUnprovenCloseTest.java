package io.chanledger.domain.channel;

import static io.chanledger.domain.channel.MeteredChannel.*;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.instanceOf;

import io.chanledger.domain.chain.ChainRef;
import java.util.List;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.axonframework.test.aggregate.TestExecutor;
import org.hamcrest.FeatureMatcher;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Channel aggregate's rules after a close authorization asked for unsigned (by the consumer's
 * client, or by a stranger): the channel goes on paying for requests, but only one request may
 * take the charged total above the authorization before the provider's claim voids it, and new
 * unsigned authorizations are spaced apart.
 */
class ChannelUnprovenCloseTest {

    private static final long INTERVAL = 60;
    private static final long CLOSED_AT = NOW + 10;
    private static final ChainRef CLAIM_REF = new ChainRef(101, OPEN_REF.blockHash(), OPEN_REF.txHash(), 1);

    private FixtureConfiguration<ChannelAggregate> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(ChannelAggregate.class);
    }

    private static CloseAuthorized unprovenClose(long amount) {
        return new CloseAuthorized(CHANNEL, units(amount), SIG, false, CLOSED_AT);
    }

    private static AuthorizeClose unsignedClose(long amount, long at) {
        return new AuthorizeClose(CHANNEL, units(amount), SIG, at, false, INTERVAL);
    }

    /** Charged 30,000, then closed unsigned at that amount. */
    private static List<Object> closedAt30k() {
        return List.of(opened(), held(100_000, 1, 100_000, 40_000, 0), settled(1, 30_000, 30_000, 30_000),
                unprovenClose(30_000));
    }

    /** {@link #closedAt30k()}, then one request charged 20,000 above the authorization. */
    private static List<Object> passedBy20k() {
        return List.of(opened(), held(100_000, 1, 100_000, 40_000, 0), settled(1, 30_000, 30_000, 30_000),
                unprovenClose(30_000), held(500_000, 2, 400_000, 40_000, 30_000), settled(2, 20_000, 20_000, 50_000));
    }

    @Test
    void anUnsignedCloseIsRecordedAsNotTheConsumersWithWhenItWasAskedFor() {
        fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0), settled(1, 30_000, 30_000, 30_000))
                .when(unsignedClose(30_000, CLOSED_AT))
                .expectEvents(unprovenClose(30_000));
    }

    @Test
    void aStrangersCloseLeavesTheConsumerAbleToPayForTheNextRequest() {
        fixture.given(closedAt30k())
                .when(paying(200_000, 2, 40_000))
                .expectEvents(new VoucherAccepted(CHANNEL, units(200_000), units(2), SIG, units(100_000), NOW,
                        units(40_000), HOLD_UNTIL, units(30_000)));
    }

    @Test
    void theOneRequestAfterItIsChargedItsWholeCostWithinItsVoucherAndCallsForTheClaim() {
        fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0), settled(1, 30_000, 30_000, 30_000),
                        unprovenClose(30_000), held(500_000, 2, 400_000, 5_000, 30_000))
                .when(new SettleRequest(CHANNEL, units(2), units(300_000), NOW + 5))
                .expectEvents(settled(2, 300_000, 300_000, 330_000))
                .expectResultMessagePayload(new RequestSettlement(CHANNEL, units(2), units(300_000), units(300_000),
                        units(330_000), DEPOSIT, DEPOSIT.subtract(units(330_000)), true, true));
    }

    @Test
    void onceChargedAboveItRequestsWaitForTheClaim() {
        rejects(fixture.given(passedBy20k()), paying(600_000, 3, 1), VoucherRejection.CLAIM_PENDING);
    }

    @Test
    void whileOneRequestRunsAnotherWaitsEvenWithRoomInItsVoucher() {
        rejects(fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0), settled(1, 30_000, 30_000, 30_000),
                        unprovenClose(30_000), held(500_000, 2, 400_000, 1_000, 30_000)),
                paying(900_000, 3, 1_000), VoucherRejection.CLAIM_PENDING);
    }

    @Test
    void aRequestChargedNothingLeavesTheChannelServing() {
        fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0), settled(1, 30_000, 30_000, 30_000),
                        unprovenClose(30_000), held(500_000, 2, 400_000, 40_000, 30_000), settled(2, 0, 0, 30_000))
                .when(paying(500_000, 3, 40_000))
                .expectSuccessfulHandlerExecution();
    }

    @Test
    void aHoldPastItsTimeDoesNotBlockTheNextRequest() {
        fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0), settled(1, 30_000, 30_000, 30_000),
                        unprovenClose(30_000), held(500_000, 2, 400_000, 40_000, 30_000))
                .when(paying(600_000, 3, 40_000, HOLD_UNTIL))
                .expectSuccessfulHandlerExecution();
    }

    /**
     * Two requests whose holds lapsed before the close (a stuck instance) are both settled after
     * it: the first may pass the authorization, the second is then charged nothing.
     */
    @Test
    void onlyOneRequestIsChargedAboveItEvenAmongRequestsThatOutlivedTheirHolds() {
        fixture.given(opened(), held(100_000, 1, 100_000, 5_000, 0), held(200_000, 2, 100_000, 5_000, 0),
                        new CloseAuthorized(CHANNEL, units(0), SIG, false, HOLD_UNTIL),
                        new RequestSettled(CHANNEL, units(1), units(40_000), units(40_000), units(40_000), HOLD_UNTIL + 1))
                .when(new SettleRequest(CHANNEL, units(2), units(30_000), HOLD_UNTIL + 2))
                .expectEvents(new RequestSettled(CHANNEL, units(2), units(30_000), units(0), units(40_000),
                        HOLD_UNTIL + 2));
    }

    @Test
    void theOneRequestsHoldIsRaisedWithinItsVoucher() {
        fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0), settled(1, 30_000, 30_000, 30_000),
                        unprovenClose(30_000), held(500_000, 2, 400_000, 5_000, 30_000))
                .when(new RaiseHold(CHANNEL, units(2), units(300_000), NOW + 2))
                .expectEvents(new HoldRaised(CHANNEL, units(2), units(300_000), NOW + 2));
    }

    @Test
    void aClaimAboveItVoidsItAndLiftsTheRule() {
        fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0), settled(1, 30_000, 30_000, 30_000),
                        unprovenClose(30_000), held(500_000, 2, 400_000, 40_000, 30_000),
                        settled(2, 20_000, 20_000, 50_000),
                        new ChannelClaimed(CHANNEL, PROVIDER, units(30_001), units(0), units(30_001), CLAIM_REF),
                        held(600_000, 3, 100_000, 40_000, 50_000))
                .when(paying(700_000, 4, 40_000))
                .expectSuccessfulHandlerExecution();
    }

    @Test
    void aClaimAtItsAmountLeavesItStanding() {
        rejects(fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0), settled(1, 30_000, 30_000, 30_000),
                        unprovenClose(30_000), held(500_000, 2, 400_000, 40_000, 30_000),
                        settled(2, 20_000, 20_000, 50_000),
                        new ChannelClaimed(CHANNEL, PROVIDER, units(30_000), units(0), units(30_000), CLAIM_REF)),
                paying(600_000, 3, 40_000), VoucherRejection.CLAIM_PENDING);
    }

    @Test
    void theConsumersOwnCloseStopsPaymentsAfterAnUnprovenOne() {
        rejects(fixture.given(opened(), held(100_000, 1, 100_000, 40_000, 0), settled(1, 30_000, 30_000, 30_000),
                        unprovenClose(30_000), new CloseAuthorized(CHANNEL, units(30_000), SIG, true)),
                paying(200_000, 2, 40_000), VoucherRejection.CHANNEL_CLOSING);
    }

    @Test
    void theFloorIsTheLowestAuthorizationNotBelowTheClaimedTotal() {
        assertThat(UnprovenCloses.of(List.of(opened(), unprovenClose(30_000), unprovenClose(50_000))).floor())
                .isEqualTo(units(30_000));
        assertThat(UnprovenCloses.of(List.of(opened(), unprovenClose(30_000), unprovenClose(50_000),
                new ChannelClaimed(CHANNEL, PROVIDER, units(40_000), units(0), units(40_000), CLAIM_REF))).floor())
                .isEqualTo(units(50_000));
        assertThat(UnprovenCloses.of(List.of(opened(), new CloseAuthorized(CHANNEL, units(30_000), SIG))).floor())
                .isNull();
    }

    @Test
    void askingAgainAtTheSameAmountRecordsNothingAndIsNotCounted() {
        fixture.given(closedAt30k())
                .when(unsignedClose(30_000, CLOSED_AT + 1))
                .expectSuccessfulHandlerExecution()
                .expectNoEvents();
    }

    @Test
    void aNewAmountSoonerThanTheIntervalIsRefusedWithWhenToAskAgain() {
        fixture.given(passedBy20k())
                .when(unsignedClose(50_000, CLOSED_AT + 40))
                .expectException(allOf(instanceOf(CloseAuthorizationRateLimitedException.class),
                        new FeatureMatcher<Object, Long>(equalTo(INTERVAL - 40), "retry after", "retryAfterSeconds") {
                            @Override
                            protected Long featureValueOf(Object actual) {
                                return ((CloseAuthorizationRateLimitedException) actual).retryAfterSeconds();
                            }
                        }))
                .expectNoEvents();
    }

    @Test
    void aNewAmountAfterTheIntervalIsAuthorized() {
        fixture.given(passedBy20k())
                .when(unsignedClose(50_000, CLOSED_AT + INTERVAL))
                .expectEvents(new CloseAuthorized(CHANNEL, units(50_000), SIG, false, CLOSED_AT + INTERVAL));
    }

    @Test
    void theConsumersSignedCloseIsNeverSpacedApart() {
        fixture.given(passedBy20k())
                .when(new AuthorizeClose(CHANNEL, units(50_000), SIG, CLOSED_AT + 1, true, INTERVAL))
                .expectEvents(new CloseAuthorized(CHANNEL, units(50_000), SIG, true, null));
    }

    private static void rejects(TestExecutor<ChannelAggregate> given, AcceptVoucher command, VoucherRejection reason) {
        given.when(command)
                .expectException(new FeatureMatcher<Object, VoucherRejection>(equalTo(reason), "reason", "reason") {
                    @Override
                    protected VoucherRejection featureValueOf(Object actual) {
                        return actual instanceof VoucherRejectedException e ? e.reason() : null;
                    }
                })
                .expectNoEvents();
    }
}
