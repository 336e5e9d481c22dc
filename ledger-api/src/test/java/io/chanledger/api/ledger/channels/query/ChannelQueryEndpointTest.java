package io.chanledger.api.ledger.channels.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.api.ledger.readmodels.ReadModelsCaughtUp;
import io.chanledger.api.support.AdminReads;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.CloseKind;
import io.chanledger.domain.channel.ExpireChannel;
import io.chanledger.domain.channel.RecordClaim;
import io.chanledger.domain.channel.RecordClose;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.projections.rebuild.ReadModelProgress;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.eventhandling.DomainEventMessage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class ChannelQueryEndpointTest extends LedgerIntegrationTest {

    private static final BigInteger DEPOSIT = BigInteger.valueOf(10_000_000);
    private static final DigestSigner CONSUMER = TestKeys.wallet("read-model-consumer");

    @Autowired
    CommandGateway commands;
    @Autowired
    ChannelHistory history;
    @Autowired
    ReadModelProgress progress;

    /** A provider of this test alone, so that listings see only this test's channels. */
    private DigestSigner provider;

    @BeforeEach
    void freshProvider() {
        provider = TestKeys.wallet("read-model-provider-" + UUID.randomUUID());
    }

    private static long now() {
        return Instant.now().getEpochSecond();
    }

    private String open(long expiry) {
        return Channels.open(commands, CONSUMER, provider, DEPOSIT, expiry);
    }

    private void vouch(String channelId, long amount, long nonce) {
        Http.Reply reply = Http.postJson(baseUrl() + "/api/channels/" + channelId + "/vouchers",
                Channels.voucherJson(CONSUMER, channelId, amount, nonce));
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    }

    private void claim(String channelId, long payout) {
        BigInteger gross = BigInteger.valueOf(payout);
        commands.sendAndWait(new RecordClaim(channelId, gross, gross.multiply(BigInteger.valueOf(200))
                .divide(BigInteger.valueOf(10_000)), Channels.nextChainRef()));
    }

    private void caughtUp() {
        ReadModelsCaughtUp.await(progress, Duration.ofSeconds(30));
    }

    private JsonNode list(String query) {
        Http.Reply reply = Http.get(baseUrl() + "/api/channels?" + query);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.json();
    }

    /** The admin's listing: {@code atRisk} filters by off-chain figures, which anonymous callers may not use. */
    private JsonNode listAsAdmin(String query) {
        Http.Reply reply = AdminReads.get(baseUrl() + "/api/channels?" + query);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.json();
    }

    private static List<String> ids(JsonNode page) {
        List<String> ids = new ArrayList<>();
        page.path("channels").forEach(channel -> ids.add(channel.path("channelId").asText()));
        return ids;
    }

    private void assertBadParameter(String query, String parameter) {
        Http.Reply reply = Http.get(baseUrl() + "/api/channels?" + query);
        assertThat(reply.status()).as(query).isEqualTo(400);
        assertThat(reply.contentType()).startsWith("application/problem+json");
        assertThat(reply.json().path("code").asText()).isEqualTo("invalid_parameter");
        assertThat(reply.json().path("parameter").asText()).isEqualTo(parameter);
    }

    @Test
    void listsAProvidersChannelsPageByPageInChannelIdOrder() {
        List<String> opened = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String channelId = open(now() + 86_400);
            vouch(channelId, 1_000L * (i + 1), 1);
            opened.add(channelId);
        }
        caughtUp();

        String filter = "provider=" + Hex.toChecksumAddress(provider.address()) + "&limit=2";
        JsonNode first = list(filter);
        JsonNode second = list(filter + "&cursor=" + first.path("nextCursor").asText());
        JsonNode third = list(filter + "&cursor=" + second.path("nextCursor").asText());

        List<String> all = new ArrayList<>(ids(first));
        all.addAll(ids(second));
        all.addAll(ids(third));
        assertThat(all).isEqualTo(opened.stream().sorted().toList());
        assertThat(third.has("nextCursor")).isFalse();
        assertThat(first.path("channels").get(0).path("provider").asText())
                .isEqualTo(Hex.toChecksumAddress(provider.address()));
    }

    @Test
    void filtersByConsumerStatusAndRisk() {
        String atRisk = open(now() + 1_800);
        vouch(atRisk, 5_000, 1);
        String safe = open(now() + 86_400);
        vouch(safe, 5_000, 1);
        String closed = open(now() + 86_400);
        commands.sendAndWait(new RecordClose(closed, DEPOSIT, CloseKind.COOPERATIVE, Channels.nextChainRef()));
        caughtUp();
        String byProvider = "provider=" + provider.address();

        assertThat(ids(listAsAdmin(byProvider + "&atRisk=true"))).containsExactly(atRisk);
        assertThat(ids(listAsAdmin(byProvider + "&atRisk=false"))).containsExactlyInAnyOrder(safe, closed);
        assertThat(ids(list(byProvider + "&status=closed"))).containsExactly(closed);
        assertThat(ids(list(byProvider + "&status=open&consumer=" + CONSUMER.address())))
                .containsExactlyInAnyOrder(atRisk, safe);
        assertThat(listAsAdmin(byProvider + "&atRisk=true").path("channels").get(0).path("atRisk").asBoolean())
                .isTrue();
    }

    @Test
    void invalidParametersAreBadRequestsNamingTheParameter() {
        assertBadParameter("provider=0x1234", "provider");
        assertBadParameter("consumer=0x" + "Ab".repeat(20), "consumer");
        assertBadParameter("status=pending", "status");
        assertBadParameter("atRisk=maybe", "atRisk");
        assertBadParameter("limit=0", "limit");
        assertBadParameter("limit=201", "limit");
        assertBadParameter("limit=ten", "limit");
        assertBadParameter("cursor=not-a-cursor", "cursor");
    }

    @Test
    void aChannelReadsAsTheReplayOfItsEvents() {
        String channelId = open(now() + 600);
        vouch(channelId, 100_000, 1);
        vouch(channelId, 250_000, 2);
        claim(channelId, 150_000);
        vouch(channelId, 400_000, 3);

        JsonNode read = AdminReads.get(baseUrl() + "/api/channels/" + channelId).json();

        List<DomainEventMessage<?>> events = history.events(channelId);
        ChannelState replay = ChannelState.replay(events.stream().map(DomainEventMessage::getPayload).toList());
        assertThat(read.path("lastSequence").asLong()).isEqualTo(events.getLast().getSequenceNumber());
        assertThat(read.path("consumer").asText()).isEqualTo(Hex.toChecksumAddress(replay.consumer()));
        assertThat(read.path("provider").asText()).isEqualTo(Hex.toChecksumAddress(replay.provider()));
        assertThat(read.path("deposit").asText()).isEqualTo(replay.deposit().toString());
        assertThat(read.path("expiryEpochSeconds").asLong()).isEqualTo(replay.expiry());
        assertThat(read.path("status").asText()).isEqualTo(replay.status().code());
        assertThat(read.path("highestVoucher").path("amount").asText()).isEqualTo(replay.highestAmount().toString());
        assertThat(read.path("highestVoucher").path("nonce").asText()).isEqualTo(replay.highestNonce().toString());
        assertThat(read.path("voucherCount").asLong()).isEqualTo(replay.voucherCount());
        assertThat(read.path("claimed").asText()).isEqualTo(replay.claimed().toString());
        assertThat(read.path("feesPaid").asText()).isEqualTo(replay.feesPaid().toString());
        assertThat(read.path("claimable").asText()).isEqualTo(replay.claimable().toString());
        assertThat(read.path("refundable").asText()).isEqualTo(replay.remaining().toString());
        assertThat(read.path("netClaimable").asText()).isEqualTo("245000");
        assertThat(read.path("chargedTotal").asText()).isEqualTo(replay.chargedTotal().toString());
        assertThat(read.path("held").asText()).isEqualTo("0");
        assertThat(read.path("atRisk").asBoolean()).isTrue();
    }

    @Test
    void expiryAndCloseAreReflected() {
        long expiry = now() - 5;
        String channelId = open(now() + 86_400);
        String expiring = Channels.open(commands, CONSUMER, provider, DEPOSIT, expiry);
        commands.sendAndWait(new ExpireChannel(expiring, now(), 77));
        vouch(channelId, 300, 1);
        claim(channelId, 300);
        commands.sendAndWait(new RecordClose(channelId, DEPOSIT.subtract(BigInteger.valueOf(300)),
                CloseKind.COOPERATIVE, Channels.nextChainRef()));

        JsonNode expired = Http.get(baseUrl() + "/api/channels/" + expiring).json();
        JsonNode closed = AdminReads.get(baseUrl() + "/api/channels/" + channelId).json();

        assertThat(expired.path("status").asText()).isEqualTo("expired");
        assertThat(closed.path("status").asText()).isEqualTo("closed");
        assertThat(closed.path("refund").asText()).isEqualTo(DEPOSIT.subtract(BigInteger.valueOf(300)).toString());
        assertThat(closed.path("closeKind").asText()).isEqualTo("cooperative");
        assertThat(closed.path("claimable").asText()).isEqualTo("0");
    }
}
