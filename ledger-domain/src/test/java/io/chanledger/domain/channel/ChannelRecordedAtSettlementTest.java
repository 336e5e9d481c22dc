package io.chanledger.domain.channel;

import static io.chanledger.domain.channel.MeteredChannel.*;

import static org.hamcrest.Matchers.equalTo;

import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.axonframework.test.aggregate.TestExecutor;
import org.hamcrest.FeatureMatcher;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A paid request whose voucher is recorded with its settlement, in one commit: until then the
 * request's hold lives in the channel's memory on the instance that admitted it. The fixture keeps
 * one aggregate instance across commands ({@code givenState}), as the instance's cache does; a
 * fixture sourcing the channel from its events stands for an instance that lost that memory.
 */
class ChannelRecordedAtSettlementTest {

    private FixtureConfiguration<ChannelAggregate> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(ChannelAggregate.class);
    }

    private static AcceptVoucher admitting(long amount, long nonce, long hold) {
        return new AcceptVoucher(CHANNEL, units(amount), units(nonce), SIG, CONSUMER, NOW,
                new MeteredRequest(units(hold), HOLD_UNTIL, PROVIDER).recordingAtSettlement());
    }

    private static SettleRequest settling(AcceptVoucher admitted, long cost) {
        return SettleRequest.recording(admitted, units(cost), NOW + 5);
    }

    /** A channel held in memory, as the instance's cache holds it, with {@code events} applied. */
    private TestExecutor<ChannelAggregate> cached(ChannelEvent... events) {
        return fixture.givenState(() -> {
            ChannelAggregate channel = new ChannelAggregate();
            channel.on(opened());
            for (ChannelEvent event : events) {
                channel.on(event);
            }
            return channel;
        });
    }

    @Test
    void anAdmissionRecordsNothing() {
        cached()
                .when(admitting(100_000, 1, 5_000))
                .expectSuccessfulHandlerExecution()
                .expectNoEvents();
    }

    @Test
    void theSettlementRecordsTheVoucherAndTheChargeTogether() {
        AcceptVoucher admitted = admitting(100_000, 1, 5_000);
        cached()
                .andGivenCommands(admitted)
                .when(settling(admitted, 4_000))
                .expectEvents(held(100_000, 1, 100_000, 5_000, 0), settled(1, 4_000, 4_000, 4_000));
    }

    @Test
    void aSecondRequestMustCoverTheHoldOfAnUnrecordedOne() {
        rejects(cached().andGivenCommands(admitting(100_000, 1, 60_000)), admitting(100_000, 2, 50_000),
                VoucherRejection.INSUFFICIENT_FUNDS);
    }

    @Test
    void anUnrecordedVoucherPaysForOneRequestOnly() {
        AcceptVoucher admitted = admitting(100_000, 1, 5_000);
        rejects(cached().andGivenCommands(admitted), admitted, VoucherRejection.NONCE_NOT_INCREASING);
    }

    @Test
    void anUnrecordedNonceCountsAsTheLastOne() {
        rejects(cached().andGivenCommands(admitting(100_000, 5, 5_000)), admitting(110_000, 4, 5_000),
                VoucherRejection.NONCE_NOT_INCREASING);
    }

    /**
     * Request 2 settles first and records its voucher; request 1, settled after, is not recorded
     * (it is no longer the newest) and is charged from the room voucher 2 leaves, which covered it.
     */
    @Test
    void aRequestSettledAfterALaterOneIsChargedFromTheLaterVoucher() {
        AcceptVoucher first = admitting(100_000, 1, 5_000);
        AcceptVoucher second = admitting(200_000, 2, 5_000);
        cached()
                .andGivenCommands(first, second, settling(second, 4_000))
                .when(settling(first, 3_000))
                .expectEvents(settled(1, 3_000, 3_000, 7_000));
    }

    /** An instance that lost the channel's memory (or another instance) still records the voucher. */
    @Test
    void aSettlementWhoseAdmissionWasForgottenStillRecordsTheVoucher() {
        AcceptVoucher admitted = admitting(100_000, 1, 5_000);
        fixture.given(opened())
                .when(settling(admitted, 4_000))
                .expectEvents(held(100_000, 1, 100_000, 5_000, 0), settled(1, 4_000, 4_000, 4_000));
    }

    @Test
    void aSettlementAlreadyRecordedIsNotChargedTwice() {
        fixture.given(opened(), held(100_000, 1, 100_000, 5_000, 0), settled(1, 4_000, 4_000, 4_000))
                .when(settling(admitting(100_000, 1, 5_000), 4_000))
                .expectNoEvents();
    }

    @Test
    void noCloseIsAuthorizedWhileAnUnrecordedRequestRuns() {
        cached()
                .andGivenCommands(admitting(100_000, 1, 5_000))
                .when(new AuthorizeClose(CHANNEL, units(0), SIG, NOW + 1, true))
                .expectException(CloseAuthorizationRejectedException.class);
    }

    /**
     * A request admitted on an instance that did not see the consumer's close (asked at 40,000 on
     * another instance) is paid up to the close only, and its voucher is not recorded.
     */
    @Test
    void aRequestSettledAfterTheConsumersCloseIsPaidUpToTheCloseOnly() {
        fixture.given(opened(), held(100_000, 1, 100_000, 5_000, 0), settled(1, 30_000, 30_000, 30_000),
                        new CloseAuthorized(CHANNEL, units(40_000), SIG, true))
                .when(settling(admitting(200_000, 2, 5_000), 50_000))
                .expectEvents(settled(2, 50_000, 10_000, 40_000));
    }

    private static void rejects(TestExecutor<ChannelAggregate> given, AcceptVoucher command, VoucherRejection reason) {
        given.when(command)
                .expectException(new FeatureMatcher<Object, VoucherRejection>(
                        equalTo(reason), "rejection reason", "reason") {
                    @Override
                    protected VoucherRejection featureValueOf(Object actual) {
                        return actual instanceof VoucherRejectedException rejected ? rejected.reason() : null;
                    }
                });
    }
}
