package io.chanledger.api.ledger.channels.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.SecondInstance;
import io.chanledger.api.support.TestKeys;
import io.chanledger.domain.channel.AcceptVoucher;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.MeteredRequest;
import io.chanledger.domain.channel.RequestSettled;
import io.chanledger.domain.channel.RequestSettlement;
import io.chanledger.domain.channel.SettleRequest;
import io.chanledger.domain.channel.SignedVoucher;
import io.chanledger.domain.channel.VoucherRejectedException;
import io.chanledger.domain.channel.VoucherRejection;
import io.chanledger.domain.channel.VoucherAccepted;
import io.chanledger.domain.channel.VoucherReceipt;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.axonframework.commandhandling.CommandBus;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.common.Registration;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Two instances of the service on one PostgreSQL database, as behind a round-robin balancer:
 * this test's shared context (A) and {@link SecondInstance} (B). Each caches channels; neither
 * may decide a voucher on a copy older than the store, a lost race is decided again instead of
 * failing, and no answer is ever a 5xx.
 */
class TwoInstancesTest extends LedgerIntegrationTest {

    private static final DigestSigner CONSUMER = TestKeys.wallet("two-instances-consumer");
    private static final DigestSigner PROVIDER = TestKeys.wallet("two-instances-provider");
    private static final BigInteger DEPOSIT = BigInteger.valueOf(1_000_000_000_000L);

    @Autowired
    CommandGateway commands;

    @Autowired
    ChannelHistory history;

    @Autowired
    CommandBus commandBus;

    @Autowired
    VoucherCommitBatcher batcher;

    @Autowired
    MeterRegistry meters;

    @Autowired
    VoucherAdmission admission;

    @Autowired
    ChannelCommits commits;

    @Autowired
    JdbcTemplate jdbc;

    record Outcome(int status, String code, BigInteger amount, BigInteger nonce, boolean duplicate) {
        static Outcome of(Http.Reply reply) {
            JsonNode body = reply.json();
            if (reply.status() == 200) {
                return new Outcome(200, null, new BigInteger(body.path("amount").asText()),
                        new BigInteger(body.path("nonce").asText()), body.path("duplicate").asBoolean());
            }
            return new Outcome(reply.status(), body.path("code").asText(null), null, null, false);
        }
    }

    @BeforeAll
    static void startSecondInstance() {
        SecondInstance.context();
    }

    private String open() {
        return Channels.open(commands, CONSUMER, PROVIDER, DEPOSIT, Instant.now().getEpochSecond() + 86_400);
    }

    private List<String> instances() {
        return List.of(baseUrl(), SecondInstance.baseUrl());
    }

    private static Http.Reply post(String instance, String channelId, long amount, long nonce) {
        return Http.postJson(instance + "/api/channels/" + channelId + "/vouchers",
                Channels.voucherJson(CONSUMER, channelId, amount, nonce));
    }

    @Test
    void vouchersForOneChannelAlternatingBetweenInstancesAreAllAccepted() {
        String channelId = open();
        List<String> instances = instances();
        for (int nonce = 1; nonce <= 60; nonce++) {
            Http.Reply reply = post(instances.get(nonce % 2), channelId, nonce * 1_000L, nonce);
            assertThat(reply.status()).as("voucher %d: %s", nonce, reply.body()).isEqualTo(200);
            assertThat(reply.json().path("duplicate").asBoolean()).isFalse();
            assertThat(reply.json().path("increment").asText()).isEqualTo("1000");
        }
        assertRecordedExactlyOnce(channelId, 60);
    }

    @Test
    void aResentVoucherAnswersTheSameOnEveryInstanceAndRecordsNothing() {
        String channelId = open();
        List<String> instances = instances();
        for (int nonce = 1; nonce <= 3; nonce++) {
            assertThat(post(instances.get(nonce % 2), channelId, nonce * 500L, nonce).status()).isEqualTo(200);
        }
        int eventsBefore = history.events(channelId).size();
        for (String instance : List.of(instances.get(0), instances.get(1), instances.get(0), instances.get(1))) {
            for (int nonce = 1; nonce <= 3; nonce++) {
                Http.Reply again = post(instance, channelId, nonce * 500L, nonce);
                assertThat(again.status()).as(again.body()).isEqualTo(200);
                assertThat(again.json().path("duplicate").asBoolean()).isTrue();
                assertThat(again.json().path("amount").asText()).isEqualTo(String.valueOf(nonce * 500L));
            }
        }
        assertThat(history.events(channelId)).hasSize(eventsBefore);
    }

    @Test
    void eightClientsAlternatingInstancesOnTheirOwnChannelsNeverFail() throws Exception {
        int clients = 8;
        int vouchersEach = 40;
        List<String> channels = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            channels.add(open());
        }
        List<String> instances = instances();
        List<Outcome> outcomes = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            String channelId = channels.get(c);
            int first = c;
            done.add(pool.submit(() -> {
                start.await();
                for (int nonce = 1; nonce <= vouchersEach; nonce++) {
                    outcomes.add(Outcome.of(post(instances.get((first + nonce) % 2), channelId, nonce * 10L, nonce)));
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : done) {
            f.get(180, TimeUnit.SECONDS);
        }
        pool.shutdown();

        assertThat(outcomes).hasSize(clients * vouchersEach);
        assertThat(outcomes).allSatisfy(o -> assertThat(o.status()).as("%s", o).isEqualTo(200));
        for (String channelId : channels) {
            assertRecordedExactlyOnce(channelId, vouchersEach);
        }
    }

    @Test
    void oneChannelHammeredFromBothInstancesDecidesEveryVoucherOnce() throws Exception {
        String channelId = open();
        List<String> instances = instances();
        int senders = 8;
        int vouchersEach = 25;
        AtomicLong next = new AtomicLong();
        List<Outcome> outcomes = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(senders);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            String instance = instances.get(s % 2);
            done.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < vouchersEach; i++) {
                    long k = next.incrementAndGet();
                    outcomes.add(Outcome.of(post(instance, channelId, k * 100, k)));
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : done) {
            f.get(180, TimeUnit.SECONDS);
        }
        pool.shutdown();

        for (Outcome o : outcomes) {
            if (o.status() != 200) {
                assertThat(o.status()).as("only a true race is refused, with the rule's own code: %s", o).isEqualTo(409);
                assertThat(o.code()).isIn("amount_not_increasing", "nonce_not_increasing");
            }
        }
        List<Outcome> accepted = outcomes.stream().filter(o -> o.status() == 200 && !o.duplicate()).toList();
        assertThat(accepted).as("most vouchers get through").hasSizeGreaterThan(senders);
        ChannelState replayed = assertRecordedExactlyOnce(channelId, accepted.size());
        BigInteger highestAnswered = accepted.stream().map(Outcome::amount).max(BigInteger::compareTo).orElseThrow();
        assertThat(replayed.highestAmount()).isEqualTo(highestAnswered);
        Set<BigInteger> answeredNonces = new HashSet<>();
        accepted.forEach(o -> answeredNonces.add(o.nonce()));
        assertThat(recorded(channelId).stream().map(VoucherAccepted::nonce).toList())
                .containsExactlyInAnyOrderElementsOf(answeredNonces);
        // the second instance snapshots every few events from its channel in memory (SecondInstance);
        // after a conflict an instance reads the channel back from the store, those snapshots included
        assertThat(jdbc.queryForObject("SELECT count(*) FROM snapshot_event_entry WHERE aggregate_identifier = ?",
                Long.class, channelId)).as("snapshots of the hammered channel").isPositive();
        // both instances now judge the next voucher on the replayed state
        for (String instance : instances) {
            Http.Reply stale = post(instance, channelId, replayed.highestAmount().longValueExact(),
                    replayed.highestNonce().longValueExact() + 1);
            assertThat(stale.status()).as(stale.body()).isEqualTo(409);
        }
    }

    /**
     * Another instance writes to one channel of a batch after the batch was checked against the
     * store: the shared commit fails on the store's sequence numbers, and the batch is decided
     * again on fresh state. The conflicting voucher is then judged as one instance would have
     * judged it, and the other vouchers of the batch are accepted, not failed.
     */
    @Test
    void aConflictInsideABatchIsDecidedAgainAndTheBatchsOtherVouchersAreAccepted() throws Exception {
        // channels routed to the same commit worker, so that they share batches
        List<String> sameWorker = new ArrayList<>();
        while (sameWorker.size() < 4) {
            String channelId = open();
            if (sameWorker.isEmpty() || Math.floorMod(channelId.hashCode(), 2)
                    == Math.floorMod(sameWorker.getFirst().hashCode(), 2)) {
                sameWorker.add(channelId);
            }
        }
        String blocker = sameWorker.get(0);
        String contested = sameWorker.get(1);
        List<String> bystanders = sameWorker.subList(2, 4);
        // the contested channel is cached here at nonce 1
        assertThat(post(baseUrl(), contested, 1_000, 1).status()).isEqualTo(200);
        double conflictsBefore = meters.counter("chan.voucher.commit.conflicts").count();

        CountDownLatch blockerArrived = new CountDownLatch(1);
        CountDownLatch releaseBlocker = new CountDownLatch(1);
        AtomicBoolean injected = new AtomicBoolean();
        MessageHandlerInterceptor<CommandMessage<?>> interference = (unitOfWork, chain) -> {
            if (unitOfWork.getMessage().getPayload() instanceof AcceptVoucher voucher) {
                if (voucher.channelId().equals(blocker)) {
                    blockerArrived.countDown();
                    releaseBlocker.await(30, TimeUnit.SECONDS);
                } else if (voucher.channelId().equals(contested) && injected.compareAndSet(false, true)) {
                    // the other instance accepts nonce 2 after this batch checked the store
                    Http.Reply other = post(SecondInstance.baseUrl(), contested, 2_000, 2);
                    assertThat(other.status()).as(other.body()).isEqualTo(200);
                }
            }
            return chain.proceed();
        };
        Registration registration = commandBus.registerHandlerInterceptor(interference);
        try {
            CompletableFuture<VoucherReceipt> first = batcher.submit(command(blocker, 1_000, 1));
            assertThat(blockerArrived.await(30, TimeUnit.SECONDS)).isTrue();
            // queued while the worker is held: they make up the next batch together
            CompletableFuture<VoucherReceipt> contestedVoucher = batcher.submit(command(contested, 3_000, 3));
            List<CompletableFuture<VoucherReceipt>> others = bystanders.stream()
                    .map(id -> batcher.submit(command(id, 1_000, 1))).toList();
            releaseBlocker.countDown();

            assertThat(first.get(30, TimeUnit.SECONDS).duplicate()).isFalse();
            VoucherReceipt decidedAgain = contestedVoucher.get(30, TimeUnit.SECONDS);
            assertThat(decidedAgain.amount()).isEqualTo(BigInteger.valueOf(3_000));
            assertThat(decidedAgain.increment()).as("decided on the other instance's nonce 2")
                    .isEqualTo(BigInteger.valueOf(1_000));
            for (CompletableFuture<VoucherReceipt> other : others) {
                assertThat(other.get(30, TimeUnit.SECONDS).duplicate()).isFalse();
            }
        } finally {
            releaseBlocker.countDown();
            registration.cancel();
        }
        assertThat(injected).isTrue();
        assertThat(meters.counter("chan.voucher.commit.conflicts").count()).isGreaterThan(conflictsBefore);
        assertRecordedExactlyOnce(contested, 3);
        for (String bystander : bystanders) {
            assertRecordedExactlyOnce(bystander, 1);
        }
    }

    /**
     * A paid request's admission and settlement are decided on the cached copy without a look-up
     * first: on a copy the other instance made stale, the commit fails on the store's sequence
     * numbers and the batch is decided again on fresh state, so every request is still charged once.
     */
    @Test
    void paidRequestsAlternatingBetweenInstancesAreEachChargedOnce() {
        String channelId = open();
        List<VoucherAdmission> admissions = List.of(admission, SecondInstance.context().getBean(VoucherAdmission.class));
        List<ChannelCommits> ledgers = List.of(commits, SecondInstance.context().getBean(ChannelCommits.class));
        double conflictsBefore = meters.counter("chan.voucher.commit.conflicts").count();
        BigInteger charged = BigInteger.ZERO;
        int requests = 30;
        for (int nonce = 1; nonce <= requests; nonce++) {
            VoucherAdmission instance = admissions.get(nonce % 2);
            BigInteger cost = BigInteger.valueOf(700 + nonce % 3);
            VoucherReceipt receipt = instance.admit(paidVoucher(channelId, nonce * 1_000L, nonce),
                    paidRequest(1_000));
            assertThat(receipt.chargedTotal()).as("request %d admitted on the charges so far", nonce).isEqualTo(charged);
            RequestSettlement settled = ledgers.get(nonce % 2).settle(settle(channelId, nonce, cost.longValue()));
            charged = charged.add(cost);
            assertThat(settled.charged()).isEqualTo(cost);
            assertThat(settled.chargedTotal()).isEqualTo(charged);
        }
        assertThat(meters.counter("chan.voucher.commit.conflicts").count())
                .as("this instance decided on copies the other one had made stale, and the commit caught it")
                .isGreaterThan(conflictsBefore);
        List<RequestSettled> settlements = history.events(channelId).stream().map(DomainEventMessage::getPayload)
                .filter(RequestSettled.class::isInstance).map(RequestSettled.class::cast).toList();
        assertThat(settlements).hasSize(requests);
        assertThat(settlements.stream().map(RequestSettled::nonce).distinct()).hasSize(requests);
        ChannelState replayed = assertRecordedExactlyOnce(channelId, requests);
        assertThat(replayed.chargedTotal()).isEqualTo(charged);
        assertThat(replayed.holds()).isEmpty();
    }

    /**
     * A refusal records nothing, so a stale copy's refusal would not be caught at the commit: a paid
     * request refused on a copy still holding what the other instance has since settled is
     * decided again, checked against the store, and admitted. A refusal that holds on fresh state
     * stays one.
     */
    @Test
    void aPaidRequestRefusedOnAStaleCopyIsDecidedAgainOnFreshState() {
        String channelId = open();
        VoucherAdmission here = admission;
        VoucherAdmission there = SecondInstance.context().getBean(VoucherAdmission.class);
        ChannelCommits settledHere = commits;
        ChannelCommits settledThere = SecondInstance.context().getBean(ChannelCommits.class);
        // the other instance runs request 1 holding 5,000
        there.admit(paidVoucher(channelId, 5_000, 1), paidRequest(5_000));
        // this instance caches the channel with that hold: request 2 fits beside it
        here.admit(paidVoucher(channelId, 6_000, 2), paidRequest(1_000));
        settledHere.settle(settle(channelId, 2, 1_000));
        // the other instance settles request 1 at 1,000: its hold is gone, which this copy does not know
        settledThere.settle(settle(channelId, 1, 1_000));
        double checkedAgainBefore = meters.counter("chan.voucher.commit.checked-again").count();

        // 7,000 covers the 2,000 charged and a 5,000 hold, but not the 5,000 the stale copy still holds besides
        VoucherReceipt admitted = here.admit(paidVoucher(channelId, 7_000, 3), paidRequest(5_000));
        assertThat(admitted.chargedTotal()).isEqualTo(BigInteger.valueOf(2_000));
        assertThat(meters.counter("chan.voucher.commit.checked-again").count()).isGreaterThan(checkedAgainBefore);
        settledHere.settle(settle(channelId, 3, 5_000));

        // on fresh state 7,000 does not cover 7,000 charged and another 1,000: refused, checked or not
        assertThatThrownBy(() -> here.admit(paidVoucher(channelId, 7_000, 4), paidRequest(1_000)))
                .isInstanceOfSatisfying(VoucherRejectedException.class,
                        refused -> assertThat(refused.reason()).isEqualTo(VoucherRejection.INSUFFICIENT_FUNDS));
        ChannelState replayed = ChannelState.replay(history.events(channelId).stream()
                .map(DomainEventMessage::getPayload).toList());
        assertThat(replayed.chargedTotal()).isEqualTo(BigInteger.valueOf(7_000));
        assertThat(replayed.holds()).isEmpty();
    }

    private static SignedVoucher paidVoucher(String channelId, long amount, long nonce) {
        BigInteger a = BigInteger.valueOf(amount);
        BigInteger n = BigInteger.valueOf(nonce);
        return new SignedVoucher(channelId, a, n, Hex.decode(Channels.sign(CONSUMER, channelId, a, n)));
    }

    private static SettleRequest settle(String channelId, long nonce, long cost) {
        return new SettleRequest(channelId, BigInteger.valueOf(nonce), BigInteger.valueOf(cost),
                Instant.now().getEpochSecond());
    }

    private static MeteredRequest paidRequest(long hold) {
        return new MeteredRequest(BigInteger.valueOf(hold), Instant.now().getEpochSecond() + 600,
                PROVIDER.address().toLowerCase());
    }

    private static AcceptVoucher command(String channelId, long amount, long nonce) {
        BigInteger a = BigInteger.valueOf(amount);
        BigInteger n = BigInteger.valueOf(nonce);
        return new AcceptVoucher(channelId, a, n, Channels.sign(CONSUMER, channelId, a, n), CONSUMER.address(),
                Instant.now().getEpochSecond());
    }

    private List<VoucherAccepted> recorded(String channelId) {
        return history.events(channelId).stream().map(DomainEventMessage::getPayload)
                .filter(VoucherAccepted.class::isInstance).map(VoucherAccepted.class::cast).toList();
    }

    /** Every accepted voucher is stored once, amounts and nonces strictly increase; returns the replayed state. */
    private ChannelState assertRecordedExactlyOnce(String channelId, int accepted) {
        List<VoucherAccepted> vouchers = recorded(channelId);
        assertThat(vouchers).hasSize(accepted);
        for (int i = 1; i < vouchers.size(); i++) {
            assertThat(vouchers.get(i).amount()).isGreaterThan(vouchers.get(i - 1).amount());
            assertThat(vouchers.get(i).nonce()).isGreaterThan(vouchers.get(i - 1).nonce());
            assertThat(vouchers.get(i).increment())
                    .isEqualTo(vouchers.get(i).amount().subtract(vouchers.get(i - 1).amount()));
        }
        ChannelState replayed = ChannelState.replay(history.events(channelId).stream()
                .map(DomainEventMessage::getPayload).toList());
        assertThat(replayed.voucherCount()).isEqualTo(accepted);
        for (String instance : instances()) {
            JsonNode view = Http.send(HttpRequest.newBuilder(URI.create(instance + "/api/channels/" + channelId))
                    .header("Authorization", "Bearer test-admin-token").GET()).json();
            assertThat(view.toString()).as("each instance reads the replayed state")
                    .contains(replayed.highestAmount().toString());
        }
        return replayed;
    }
}
