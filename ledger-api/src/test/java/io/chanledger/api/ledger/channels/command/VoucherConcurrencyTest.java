package io.chanledger.api.ledger.channels.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.VoucherAccepted;
import io.chanledger.domain.eip712.DigestSigner;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.eventhandling.DomainEventMessage;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Many clients at once on one channel: per-channel decisions must be atomic, so no increment is
 * ever counted twice and the recorded history is the one a single client sending in that order
 * would have produced.
 */
class VoucherConcurrencyTest extends LedgerIntegrationTest {

    private static final DigestSigner CONSUMER = TestKeys.wallet("consumer-1");
    private static final DigestSigner PROVIDER = TestKeys.wallet("provider-1");
    private static final int SENDERS = 8;
    private static final int VOUCHERS_PER_SENDER = 25;
    private static final int REPEATS_PER_SENDER = 25;

    @Autowired
    CommandGateway commands;

    @Autowired
    ChannelHistory history;

    record Outcome(int status, String code, BigInteger amount, BigInteger nonce, BigInteger increment, boolean duplicate) {
        static Outcome of(Http.Reply reply) {
            JsonNode body = reply.json();
            if (reply.status() == 200) {
                return new Outcome(200, null, new BigInteger(body.path("amount").asText()),
                        new BigInteger(body.path("nonce").asText()), new BigInteger(body.path("increment").asText()),
                        body.path("duplicate").asBoolean());
            }
            return new Outcome(reply.status(), body.path("code").asText(null), null, null, null, false);
        }
    }

    @Test
    void concurrentVouchersOnOneChannelAreDecidedOneAtATime() throws Exception {
        String channelId = Channels.open(commands, CONSUMER, PROVIDER, BigInteger.valueOf(1_000_000_000),
                Instant.now().getEpochSecond() + 86_400);
        String url = baseUrl() + "/api/channels/" + channelId + "/vouchers";
        // sender s sends vouchers k = s, s+8, s+16, ... : increasing for itself, interleaved with the others
        List<List<String>> increasing = new ArrayList<>();
        for (int s = 0; s < SENDERS; s++) {
            List<String> mine = new ArrayList<>();
            for (int i = 0; i < VOUCHERS_PER_SENDER; i++) {
                long k = 2 + (long) i * SENDERS + s;
                mine.add(Channels.voucherJson(CONSUMER, channelId, k * 1_000, k));
            }
            increasing.add(mine);
        }
        String repeated = Channels.voucherJson(CONSUMER, channelId, 1_000, 1);

        List<Outcome> outcomes = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(2 * SENDERS);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int s = 0; s < SENDERS; s++) {
            List<String> mine = increasing.get(s);
            done.add(pool.submit(() -> {
                start.await();
                mine.forEach(v -> outcomes.add(Outcome.of(Http.postJson(url, v))));
                return null;
            }));
            done.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < REPEATS_PER_SENDER; i++) {
                    outcomes.add(Outcome.of(Http.postJson(url, repeated)));
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : done) {
            f.get(120, TimeUnit.SECONDS);
        }
        pool.shutdown();

        assertThat(outcomes).hasSize(SENDERS * (VOUCHERS_PER_SENDER + REPEATS_PER_SENDER));
        for (Outcome o : outcomes) {
            if (o.status() != 200) {
                assertThat(o.status()).as("a stale voucher is a conflict").isEqualTo(409);
                assertThat(o.code()).isIn("amount_not_increasing", "nonce_not_increasing");
            }
        }

        List<DomainEventMessage<?>> events = history.events(channelId);
        List<VoucherAccepted> recorded = events.stream().map(DomainEventMessage::getPayload)
                .filter(VoucherAccepted.class::isInstance).map(VoucherAccepted.class::cast).toList();
        List<Outcome> newlyAccepted = outcomes.stream().filter(o -> o.status() == 200 && !o.duplicate()).toList();

        assertThat(recorded).as("each acceptance answered is recorded once").hasSize(newlyAccepted.size());
        Set<BigInteger> nonces = new HashSet<>();
        for (int i = 0; i < recorded.size(); i++) {
            assertThat(nonces.add(recorded.get(i).nonce())).as("no voucher recorded twice").isTrue();
            if (i > 0) {
                assertThat(recorded.get(i).amount()).isGreaterThan(recorded.get(i - 1).amount());
                assertThat(recorded.get(i).nonce()).isGreaterThan(recorded.get(i - 1).nonce());
                assertThat(recorded.get(i).increment())
                        .isEqualTo(recorded.get(i).amount().subtract(recorded.get(i - 1).amount()));
            }
        }
        BigInteger answeredIncrements = newlyAccepted.stream().map(Outcome::increment).reduce(BigInteger.ZERO, BigInteger::add);
        ChannelState replayed = ChannelState.replay(events.stream().map(DomainEventMessage::getPayload).toList());
        assertThat(answeredIncrements).as("increments answered add up to the highest voucher, none spent twice")
                .isEqualTo(replayed.highestAmount());
        assertThat(replayed.voucherCount()).isEqualTo(recorded.size());

        // the live aggregate judges the next voucher against exactly the replayed state
        BigInteger next = replayed.highestAmount().add(BigInteger.ONE);
        Http.Reply stale = Http.postJson(url, Channels.voucherJson(CONSUMER, channelId,
                replayed.highestAmount().longValueExact(), replayed.highestNonce().longValueExact() + 1));
        assertThat(stale.status()).isEqualTo(409);
        Http.Reply following = Http.postJson(url, Channels.voucherJson(CONSUMER, channelId, next.longValueExact(),
                replayed.highestNonce().longValueExact() + 1));
        assertThat(following.status()).as(following.body()).isEqualTo(200);
        assertThat(following.json().path("increment").asText()).isEqualTo("1");
    }
}
