package io.chanledger.projections.channel;

import static io.chanledger.projections.channel.ChannelHistories.CONSUMER;
import static io.chanledger.projections.channel.ChannelHistories.DEPOSIT;
import static io.chanledger.projections.channel.ChannelHistories.OTHER_PROVIDER;
import static io.chanledger.projections.channel.ChannelHistories.PROVIDER;
import static io.chanledger.projections.channel.ChannelHistories.channelId;
import static io.chanledger.projections.channel.ChannelHistories.claim;
import static io.chanledger.projections.channel.ChannelHistories.closed;
import static io.chanledger.projections.channel.ChannelHistories.expired;
import static io.chanledger.projections.channel.ChannelHistories.opened;
import static io.chanledger.projections.channel.ChannelHistories.voucher;
import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.domain.channel.ChannelEvent;
import io.chanledger.domain.channel.ChannelOpenConfirmed;
import io.chanledger.domain.channel.ChannelOpened;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.domain.channel.CloseAuthorized;
import io.chanledger.domain.channel.CloseKind;
import io.chanledger.domain.channel.HoldRaised;
import io.chanledger.domain.channel.RequestSettled;
import io.chanledger.domain.channel.VoucherAccepted;
import io.chanledger.domain.contract.ContractSettings;
import io.chanledger.projections.readmodel.ReadModelDatabase;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.axonframework.eventhandling.AnnotationEventHandlerAdapter;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ChannelBalanceProjectionTest {

    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00.123456Z");
    private static final long EXPIRY = 1_800_000_000L;
    private static final ContractSettings FEE_200_BPS = ContractSettings.starting(BigInteger.valueOf(200), null);
    private static final String CHANNEL = channelId(1);

    private ChannelBalanceRepository repository;
    private ChannelBalanceProjection projection;

    @BeforeEach
    void freshModel() {
        repository = new ChannelBalanceRepository(ReadModelDatabase.create());
        projection = new ChannelBalanceProjection(repository, List.of());
    }

    private ChannelBalance row() {
        return repository.find(CHANNEL).orElseThrow();
    }

    @Test
    void anOpenedChannelHasItsTermsAndNothingToClaim() {
        projection.on(opened(CHANNEL, PROVIDER, EXPIRY), 0, T0);

        ChannelBalance row = row();
        assertThat(row.state().consumer()).isEqualTo(CONSUMER);
        assertThat(row.state().provider()).isEqualTo(PROVIDER);
        assertThat(row.state().deposit()).isEqualTo(DEPOSIT);
        assertThat(row.state().expiry()).isEqualTo(EXPIRY);
        assertThat(row.state().status()).isEqualTo(ChannelStatus.OPEN);
        assertThat(row.state().claimable()).isZero();
        assertThat(row.state().refundable()).isEqualTo(DEPOSIT);
        assertThat(row.state().highestNonce()).isNull();
        assertThat(row.lastActivity()).isEqualTo(T0);
    }

    @Test
    void aVoucherBecomesTheHighestAndIsClaimable() {
        projection.on(opened(CHANNEL, PROVIDER, EXPIRY), 0, T0);
        projection.on(voucher(CHANNEL, 400, 1, 0), 1, T0.plusSeconds(1));
        VoucherAccepted second = voucher(CHANNEL, 1_000, 2, 400);
        projection.on(second, 2, T0.plusSeconds(2));

        ChannelBalance row = row();
        assertThat(row.state().highestAmount()).isEqualTo(BigInteger.valueOf(1_000));
        assertThat(row.state().highestNonce()).isEqualTo(BigInteger.TWO);
        assertThat(row.state().highestSignature()).isEqualTo(second.signature());
        assertThat(row.state().voucherCount()).isEqualTo(2);
        assertThat(row.state().claimable()).isEqualTo(BigInteger.valueOf(1_000));
        assertThat(row.netClaimable(FEE_200_BPS)).isEqualTo(BigInteger.valueOf(980));
        assertThat(row.state().refundable()).isEqualTo(DEPOSIT.subtract(BigInteger.valueOf(1_000)));
        assertThat(row.lastActivity()).isEqualTo(T0.plusSeconds(2));
    }

    @Test
    void aClaimLowersWhatIsClaimableAndAddsItsFee() {
        projection.on(opened(CHANNEL, PROVIDER, EXPIRY), 0, T0);
        projection.on(voucher(CHANNEL, 1_000, 1, 0), 1, T0);
        projection.on(claim(CHANNEL, PROVIDER, 700, 700), 2, T0);

        ChannelBalance row = row();
        assertThat(row.state().claimed()).isEqualTo(BigInteger.valueOf(700));
        assertThat(row.state().feesPaid()).isEqualTo(BigInteger.valueOf(14));
        assertThat(row.state().claimable()).isEqualTo(BigInteger.valueOf(300));
        assertThat(row.netClaimable(FEE_200_BPS)).isEqualTo(BigInteger.valueOf(294));
    }

    @Test
    void anExpiredChannelStaysClaimableUntilItIsClosed() {
        projection.on(opened(CHANNEL, PROVIDER, EXPIRY), 0, T0);
        projection.on(voucher(CHANNEL, 1_000, 1, 0), 1, T0);
        projection.on(expired(CHANNEL, EXPIRY), 2, T0);

        assertThat(row().state().status()).isEqualTo(ChannelStatus.EXPIRED);
        assertThat(row().state().claimable()).isEqualTo(BigInteger.valueOf(1_000));
    }

    @Test
    void aClosedChannelHasNothingToClaimAndRecordsItsRefund() {
        projection.on(opened(CHANNEL, PROVIDER, EXPIRY), 0, T0);
        projection.on(voucher(CHANNEL, 1_000, 1, 0), 1, T0);
        projection.on(claim(CHANNEL, PROVIDER, 600, 600), 2, T0);
        projection.on(expired(CHANNEL, EXPIRY), 3, T0);
        projection.on(closed(CHANNEL, DEPOSIT.longValue() - 600), 4, T0);

        ChannelBalance row = row();
        assertThat(row.state().status()).isEqualTo(ChannelStatus.CLOSED);
        assertThat(row.state().claimable()).isZero();
        assertThat(row.state().refundable()).isZero();
        assertThat(row.state().refund()).isEqualTo(DEPOSIT.subtract(BigInteger.valueOf(600)));
        assertThat(row.state().closeKind()).isEqualTo(CloseKind.AFTER_EXPIRY);
        assertThat(row.state().atRisk(EXPIRY + 10, 3_600)).isFalse();
    }

    @Test
    void theConfirmedLogReplacesTheTermsOfAProvisionalOpening() {
        projection.on(new ChannelOpened(CHANNEL, CONSUMER, OTHER_PROVIDER, BigInteger.ONE, 5, null, true,
                BigInteger.ZERO), 0, T0);
        projection.on(new ChannelOpenConfirmed(CHANNEL, CONSUMER, PROVIDER, DEPOSIT, EXPIRY, ChannelHistories.ref(3)),
                1, T0);

        assertThat(row().state().provisional()).isFalse();
        assertThat(row().state().provider()).isEqualTo(PROVIDER);
        assertThat(row().state().deposit()).isEqualTo(DEPOSIT);
        assertThat(row().state().expiry()).isEqualTo(EXPIRY);
    }

    @Test
    void aCloseAuthorizationRecordsItsFinalAmount() {
        projection.on(opened(CHANNEL, PROVIDER, EXPIRY), 0, T0);
        projection.on(new CloseAuthorized(CHANNEL, BigInteger.valueOf(55), "0x01"), 1, T0);

        assertThat(row().state().authorizedCloseAmount()).isEqualTo(BigInteger.valueOf(55));
    }

    @Test
    void showsWhatTheGatewayChargedAndWhatRunningRequestsHold() {
        long at = 1_700_000_100L;
        twoMeteredRequests(at, at + 60, at + 1);
        projection.on(new HoldRaised(CHANNEL, BigInteger.TWO, BigInteger.valueOf(350), at + 2), 3, T0);
        projection.on(new RequestSettled(CHANNEL, BigInteger.ONE, BigInteger.valueOf(120), BigInteger.valueOf(120),
                BigInteger.valueOf(120), at + 3), 4, T0);

        ChannelState channel = row().state();
        assertThat(channel.chargedTotal()).isEqualTo(BigInteger.valueOf(120));
        assertThat(channel.heldAt(at + 3)).as("the running request's raised hold").isEqualTo(BigInteger.valueOf(350));
        assertThat(channel.heldAt(at + 60)).as("a hold lapses at its end").isZero();
        assertThat(channel.unchargedDeposit()).isEqualTo(DEPOSIT.subtract(BigInteger.valueOf(120)));
    }

    @Test
    void aHoldLapsedByTheNextVoucherIsDropped() {
        long at = 1_700_000_100L;
        twoMeteredRequests(at, at + 5, at + 10);

        assertThat(row().state().holds()).containsOnlyKeys(BigInteger.TWO);
        assertThat(row().state().heldAt(at + 10)).isEqualTo(BigInteger.valueOf(200));
    }

    /** Opens the channel and accepts two metered vouchers: 500 holding 300 until {@code firstUntil}, 900 holding 200. */
    private void twoMeteredRequests(long firstAt, long firstUntil, long secondAt) {
        projection.on(opened(CHANNEL, PROVIDER, EXPIRY), 0, T0);
        projection.on(metered(1, 500, 300, firstAt, firstUntil), 1, T0);
        projection.on(metered(2, 900, 200, secondAt, firstAt + 60), 2, T0);
    }

    private static VoucherAccepted metered(long nonce, long amount, long hold, long acceptedAt, long holdUntil) {
        return new VoucherAccepted(CHANNEL, BigInteger.valueOf(amount), BigInteger.valueOf(nonce),
                ChannelHistories.signature(CHANNEL, nonce), BigInteger.valueOf(amount), acceptedAt,
                BigInteger.valueOf(hold), holdUntil, BigInteger.ZERO);
    }

    @Test
    void aRedeliveredEventChangesNothing() {
        projection.on(opened(CHANNEL, PROVIDER, EXPIRY), 0, T0);
        projection.on(voucher(CHANNEL, 400, 1, 0), 1, T0);
        projection.on(claim(CHANNEL, PROVIDER, 400, 400), 2, T0);
        ChannelBalance before = row();

        projection.on(opened(CHANNEL, OTHER_PROVIDER, 1), 0, T0.plusSeconds(9));
        projection.on(voucher(CHANNEL, 400, 1, 0), 1, T0.plusSeconds(9));
        projection.on(claim(CHANNEL, PROVIDER, 400, 400), 2, T0.plusSeconds(9));

        assertThat(row()).isEqualTo(before);
        assertThat(row().state().feesPaid()).isEqualTo(BigInteger.valueOf(8));
    }

    @Test
    void anEventForAChannelWithoutRowIsIgnored() {
        projection.on(voucher(CHANNEL, 400, 1, 0), 1, T0);

        assertThat(repository.find(CHANNEL)).isEmpty();
    }

    @Test
    void atRiskNeedsSomethingClaimableAndAnExpiryWithinTheWindow() {
        projection.on(opened(CHANNEL, PROVIDER, EXPIRY), 0, T0);
        assertThat(row().state().atRisk(EXPIRY - 60, 3_600)).as("nothing to claim").isFalse();

        projection.on(voucher(CHANNEL, 10, 1, 0), 1, T0);
        assertThat(row().state().atRisk(EXPIRY - 7_200, 3_600)).as("expiry beyond the window").isFalse();
        assertThat(row().state().atRisk(EXPIRY - 3_600, 3_600)).as("expiry at the window's end").isTrue();
        assertThat(row().state().atRisk(EXPIRY + 86_400, 3_600)).as("expired, not closed").isTrue();
    }

    @Test
    void resetEmptiesTheModel() {
        projection.on(opened(CHANNEL, PROVIDER, EXPIRY), 0, T0);
        projection.on(opened(channelId(2), PROVIDER, EXPIRY), 0, T0);

        projection.reset();

        assertThat(repository.count()).isZero();
    }

    @Test
    void everyRowEqualsTheSequentialReplayOfItsEvents() {
        Random random = new Random(42);
        Map<String, List<Object>> histories = new LinkedHashMap<>();
        for (int n = 1; n <= 200; n++) {
            histories.put(channelId(n), ChannelHistories.random(channelId(n), random));
        }
        histories.forEach((id, events) -> {
            for (int sequence = 0; sequence < events.size(); sequence++) {
                dispatch(events.get(sequence), sequence);
            }
        });

        histories.forEach((id, events) -> assertEqualsReplay(repository.find(id).orElseThrow(), events));
    }

    @Test
    void aBatchOfInterleavedEventsGivesTheSameRowsAsOneEventAtATime() throws Exception {
        Random random = new Random(7);
        List<EventMessage<?>> stream = new ArrayList<>();
        Map<String, List<Object>> histories = new LinkedHashMap<>();
        for (int n = 1; n <= 50; n++) {
            histories.put(channelId(n), ChannelHistories.random(channelId(n), random));
        }
        ChannelHistories.interleave(histories, random, stream, T0);
        AnnotationEventHandlerAdapter adapter = new AnnotationEventHandlerAdapter(projection);

        for (int from = 0; from < stream.size(); from += 64) {
            BatchingUnitOfWork<EventMessage<?>> batch =
                    new BatchingUnitOfWork<>(stream.subList(from, Math.min(stream.size(), from + 64)));
            batch.executeWithResult(() -> adapter.handle(batch.getMessage()));
        }

        histories.forEach((id, events) -> assertEqualsReplay(repository.find(id).orElseThrow(), events));
    }

    private void dispatch(Object event, long sequence) {
        projection.on((ChannelEvent) event, sequence, T0.plusSeconds(sequence));
    }

    static void assertEqualsReplay(ChannelBalance row, List<Object> events) {
        assertThat(row.state()).isEqualTo(ChannelState.replay(events));
        assertThat(row.lastSequence()).isEqualTo(events.size() - 1);
    }
}
