package io.chanledger.api.ledger.channels.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.ledger.readmodels.ReadModelsCaughtUp;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import io.chanledger.api.ledger.wallet.WalletSigning;
import io.chanledger.domain.channel.CloseKind;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class ProviderClaimableEndpointTest extends LedgerIntegrationTest {

    private static final BigInteger DEPOSIT = BigInteger.valueOf(10_000_000);
    private static final DigestSigner CONSUMER = TestKeys.wallet("claimable-consumer");

    @Autowired
    CommandGateway commands;
    @Autowired
    ReadModelProgress progress;

    private DigestSigner provider;

    @BeforeEach
    void freshProvider() {
        provider = TestKeys.wallet("claimable-provider-" + UUID.randomUUID());
    }

    private static long now() {
        return Instant.now().getEpochSecond();
    }

    private String openWithVoucher(long expiry, long amount) {
        String channelId = Channels.open(commands, CONSUMER, provider, DEPOSIT, expiry);
        Http.Reply reply = Http.postJson(baseUrl() + "/api/channels/" + channelId + "/vouchers",
                Channels.voucherJson(CONSUMER, channelId, amount, 1));
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return channelId;
    }

    private void claim(String channelId, long payout) {
        BigInteger gross = BigInteger.valueOf(payout);
        commands.sendAndWait(new RecordClaim(channelId, gross, gross.multiply(BigInteger.valueOf(200))
                .divide(BigInteger.valueOf(10_000)), Channels.nextChainRef()));
    }

    private Http.Reply claimable(String query) {
        String path = "/api/providers/" + provider.address() + "/claimable" + query;
        return Http.send(WalletSigning.signedGet(baseUrl(), path, provider, now()));
    }

    @Test
    void listsTheClaimArgumentsOfEveryChannelWithSomethingToClaimSoonestExpiryFirst() {
        long now = now();
        String later = openWithVoucher(now + 7_200, 400_000);
        String soonest = openWithVoucher(now + 600, 100_000);
        String middle = openWithVoucher(now + 3_000, 250_000);
        claim(middle, 50_000);
        String fullyClaimed = openWithVoucher(now + 100, 90_000);
        claim(fullyClaimed, 90_000);
        String closed = openWithVoucher(now + 200, 70_000);
        claim(closed, 10_000);
        commands.sendAndWait(new RecordClose(closed, DEPOSIT.subtract(BigInteger.valueOf(10_000)),
                CloseKind.COOPERATIVE, Channels.nextChainRef()));
        ReadModelsCaughtUp.await(progress, Duration.ofSeconds(30));

        Http.Reply reply = claimable("");

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonNode body = reply.json();
        List<String> order = new ArrayList<>();
        body.path("claims").forEach(claim -> order.add(claim.path("channelId").asText()));
        assertThat(order).containsExactly(soonest, middle, later);
        JsonNode first = body.path("claims").get(0);
        assertThat(first.path("amount").asText()).isEqualTo("100000");
        assertThat(first.path("nonce").asText()).isEqualTo("1");
        assertThat(first.path("signature").asText())
                .isEqualTo(Channels.sign(CONSUMER, soonest, BigInteger.valueOf(100_000), BigInteger.ONE));
        assertThat(first.path("netClaimable").asText()).isEqualTo("98000");
        assertThat(first.path("atRisk").asBoolean()).isTrue();
        assertThat(body.path("claims").get(1).path("claimable").asText()).isEqualTo("200000");

        JsonNode totals = body.path("totals");
        assertThat(body.path("provider").asText()).isEqualTo(Hex.toChecksumAddress(provider.address()));
        assertThat(totals.path("channels").asLong()).isEqualTo(5);
        assertThat(totals.path("openChannels").asLong()).isEqualTo(4);
        assertThat(totals.path("claimable").asText()).isEqualTo("700000");
        assertThat(totals.path("claimed").asText()).isEqualTo("150000");
        assertThat(totals.path("feesPaid").asText()).isEqualTo("3000");
        assertThat(totals.path("atRisk").asText()).isEqualTo("300000");
        assertThat(totals.path("atRiskChannels").asLong()).isEqualTo(2);
    }

    @Test
    void pagesThroughTheClaimsWithACursor() {
        long now = now();
        for (int i = 0; i < 3; i++) {
            openWithVoucher(now + 1_000 + i, 1_000);
        }
        ReadModelsCaughtUp.await(progress, Duration.ofSeconds(30));

        JsonNode first = claimable("?limit=2").json();
        JsonNode second = claimable("?limit=2&cursor=" + first.path("nextCursor").asText()).json();

        assertThat(first.path("claims")).hasSize(2);
        assertThat(second.path("claims")).hasSize(1);
        assertThat(second.has("nextCursor")).isFalse();
        assertThat(second.path("claims").get(0).path("expiryEpochSeconds").asLong()).isEqualTo(now + 1_002);
    }

    @Test
    void anotherWalletMayNotReadAProvidersClaims() {
        DigestSigner stranger = TestKeys.wallet("claimable-stranger");
        String path = "/api/providers/" + provider.address() + "/claimable";

        Http.Reply reply = Http.send(WalletSigning.signedGet(baseUrl(), path, stranger, now()));

        assertThat(reply.status()).isEqualTo(403);
        assertThat(reply.json().path("code").asText()).isEqualTo("wallet_not_provider");
    }

    @Test
    void aMalformedProviderAddressIsABadRequest() {
        Http.Reply reply = Http.get(baseUrl() + "/api/providers/0x12/claimable");

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().path("parameter").asText()).isEqualTo("address");
    }
}
