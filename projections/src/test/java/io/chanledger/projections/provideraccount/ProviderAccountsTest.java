package io.chanledger.projections.provideraccount;

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

import io.chanledger.domain.channel.ChannelOpenConfirmed;
import io.chanledger.domain.channel.ChannelOpened;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.projections.channel.ChannelBalanceProjection;
import io.chanledger.projections.channel.ChannelBalanceRepository;
import io.chanledger.projections.channel.ChannelHistories;
import io.chanledger.projections.readmodel.ReadModelDatabase;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import javax.sql.DataSource;
import org.axonframework.eventhandling.AnnotationEventHandlerAdapter;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Provider accounts, fed by the channel balance projection's handlers called directly. */
class ProviderAccountsTest {

    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    private static final long EXPIRY = 1_800_000_000L;
    private static final long WINDOW = 3_600;

    private ProviderAccountRepository repository;
    private ChannelBalanceProjection projection;

    @BeforeEach
    void freshModel() {
        DataSource database = ReadModelDatabase.create();
        repository = new ProviderAccountRepository(database);
        projection = new ChannelBalanceProjection(new ChannelBalanceRepository(database),
                List.of(new ProviderAccounts(repository)));
    }

    private ProviderAccount account(String provider, long now) {
        return repository.find(provider, now + WINDOW).orElseThrow();
    }

    /** Channel n of PROVIDER with a voucher of {@code amount}, expiring at {@code expiry}. */
    private void channelWithVoucher(int n, long amount, long expiry) {
        projection.on(opened(channelId(n), PROVIDER, expiry), 0, T0);
        projection.on(voucher(channelId(n), amount, 1, 0), 1, T0.plusSeconds(n));
    }

    @Test
    void totalsAddUpTheProvidersChannels() {
        channelWithVoucher(1, 1_000, EXPIRY);
        channelWithVoucher(2, 500, EXPIRY);
        projection.on(claim(channelId(2), PROVIDER, 300, 300), 2, T0);

        ProviderAccount account = account(PROVIDER, EXPIRY - 86_400);
        assertThat(account.channels()).isEqualTo(2);
        assertThat(account.openChannels()).isEqualTo(2);
        assertThat(account.claimable()).isEqualTo(BigInteger.valueOf(1_200));
        assertThat(account.claimed()).isEqualTo(BigInteger.valueOf(300));
        assertThat(account.feesPaid()).isEqualTo(BigInteger.valueOf(6));
        assertThat(account.atRisk()).isZero();
        assertThat(account.lastActivity()).isEqualTo(T0.plusSeconds(2));
    }

    @Test
    void anExpiredChannelIsNoLongerOpenAndAClosedOneNoLongerClaimable() {
        channelWithVoucher(1, 1_000, EXPIRY);
        channelWithVoucher(2, 500, EXPIRY);
        projection.on(expired(channelId(1), EXPIRY), 2, T0);
        projection.on(expired(channelId(2), EXPIRY), 2, T0);
        projection.on(closed(channelId(2), DEPOSIT.longValue()), 3, T0);

        ProviderAccount account = account(PROVIDER, EXPIRY + 1);
        assertThat(account.openChannels()).isZero();
        assertThat(account.expiredChannels()).isEqualTo(1);
        assertThat(account.channels()).isEqualTo(2);
        assertThat(account.claimable()).isEqualTo(BigInteger.valueOf(1_000));
    }

    @Test
    void theAmountAtRiskIsWhatIsClaimableOnChannelsExpiringWithinTheWindow() {
        long now = EXPIRY - 86_400;
        channelWithVoucher(1, 1_000, now + 600);
        channelWithVoucher(2, 500, now + WINDOW);
        channelWithVoucher(3, 200, now + WINDOW + 1);
        channelWithVoucher(4, 70, now - 10);
        projection.on(claim(channelId(4), PROVIDER, 70, 70), 2, T0);

        ProviderAccount account = account(PROVIDER, now);
        assertThat(account.atRisk()).isEqualTo(BigInteger.valueOf(1_500));
        assertThat(account.atRiskChannels()).isEqualTo(2);
        assertThat(account(PROVIDER, now + WINDOW + 1).atRisk()).isEqualTo(BigInteger.valueOf(1_700));
    }

    @Test
    void aConfirmationNamingAnotherProviderMovesTheChannelsPart() {
        projection.on(new ChannelOpened(channelId(1), CONSUMER, OTHER_PROVIDER, DEPOSIT, EXPIRY, null, true,
                BigInteger.ZERO), 0, T0);
        projection.on(voucher(channelId(1), 800, 1, 0), 1, T0);
        projection.on(new ChannelOpenConfirmed(channelId(1), CONSUMER, PROVIDER, DEPOSIT, EXPIRY,
                ChannelHistories.ref(5)), 2, T0);

        assertThat(repository.find(OTHER_PROVIDER, 0)).as("an account left without channels").isEmpty();
        assertThat(account(PROVIDER, 0).channels()).isEqualTo(1);
        assertThat(account(PROVIDER, 0).claimable()).isEqualTo(BigInteger.valueOf(800));
    }

    @Test
    void aRedeliveredEventCountsOnce() {
        channelWithVoucher(1, 1_000, EXPIRY);
        projection.on(claim(channelId(1), PROVIDER, 400, 400), 2, T0);
        projection.on(opened(channelId(1), PROVIDER, EXPIRY), 0, T0);
        projection.on(voucher(channelId(1), 1_000, 1, 0), 1, T0);
        projection.on(claim(channelId(1), PROVIDER, 400, 400), 2, T0);

        ProviderAccount account = account(PROVIDER, 0);
        assertThat(account.channels()).isEqualTo(1);
        assertThat(account.claimed()).isEqualTo(BigInteger.valueOf(400));
        assertThat(account.feesPaid()).isEqualTo(BigInteger.valueOf(8));
        assertThat(account.claimable()).isEqualTo(BigInteger.valueOf(600));
    }

    @Test
    void anUnknownProviderHasNoAccount() {
        assertThat(repository.find(PROVIDER, 0)).isEmpty();
    }

    @Test
    void resetEmptiesTheAccounts() {
        channelWithVoucher(1, 1_000, EXPIRY);

        projection.reset();

        assertThat(repository.find(PROVIDER, 0)).isEmpty();
        assertThat(repository.checksum().rows()).isZero();
    }

    @Test
    void batchesOfInterleavedHistoriesKeepTheTotalsEqualToTheSumOfTheChannels() throws Exception {
        Random random = new Random(11);
        Map<String, List<Object>> histories = new LinkedHashMap<>();
        for (int n = 1; n <= 80; n++) {
            histories.put(channelId(n), ChannelHistories.random(channelId(n), random));
        }
        List<EventMessage<?>> stream = new ArrayList<>();
        ChannelHistories.interleave(histories, random, stream, T0);
        AnnotationEventHandlerAdapter adapter = new AnnotationEventHandlerAdapter(projection);

        for (int from = 0; from < stream.size(); from += 50) {
            BatchingUnitOfWork<EventMessage<?>> batch =
                    new BatchingUnitOfWork<>(stream.subList(from, Math.min(stream.size(), from + 50)));
            batch.executeWithResult(() -> adapter.handle(batch.getMessage()));
        }

        List<ChannelState> states = histories.values().stream().map(ChannelState::replay).toList();
        ProviderAccount account = account(PROVIDER, 0);
        assertThat(account.channels()).isEqualTo(states.size());
        assertThat(account.openChannels()).isEqualTo(states.stream().filter(s -> s.status() == ChannelStatus.OPEN).count());
        assertThat(account.expiredChannels())
                .isEqualTo(states.stream().filter(s -> s.status() == ChannelStatus.EXPIRED).count());
        assertThat(account.claimable()).isEqualTo(states.stream().map(ChannelState::claimable)
                .reduce(BigInteger.ZERO, BigInteger::add));
        assertThat(account.claimed()).isEqualTo(states.stream().map(ChannelState::claimed)
                .reduce(BigInteger.ZERO, BigInteger::add));
        assertThat(account.feesPaid()).isEqualTo(states.stream().map(ChannelState::feesPaid)
                .reduce(BigInteger.ZERO, BigInteger::add));
        assertThat(repository.find(OTHER_PROVIDER, 0)).as("provisional openings all confirmed to PROVIDER").isEmpty();
    }
}
