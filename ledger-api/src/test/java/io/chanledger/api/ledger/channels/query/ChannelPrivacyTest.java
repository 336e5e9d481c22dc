package io.chanledger.api.ledger.channels.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.ledger.readmodels.ReadModelsCaughtUp;
import io.chanledger.api.support.AdminReads;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import io.chanledger.api.ledger.wallet.WalletSigning;
import io.chanledger.domain.channel.AcceptVoucher;
import io.chanledger.domain.channel.AuthorizeClose;
import io.chanledger.domain.channel.MeteredRequest;
import io.chanledger.domain.channel.RecordClaim;
import io.chanledger.domain.channel.SettleRequest;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.projections.rebuild.ReadModelProgress;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Who sees what of a channel on {@code GET /api/channels}, {@code /api/channels/{id}} and
 * {@code /api/channels/{id}/events}: anonymous callers and wallets of other channels the on-chain
 * facts only; the channel's consumer and provider (wallet-signed) and the admin everything.
 *
 * <p>The channel of each test carries every kind of off-chain figure: a plain voucher, a metered
 * voucher with its hold, the settled request's charge, and a close authorization; and, beside
 * them, a claim the chain paid out.
 */
class ChannelPrivacyTest extends LedgerIntegrationTest {

    private static final BigInteger DEPOSIT = BigInteger.valueOf(10_000_000);
    private static final BigInteger CLAIMED = BigInteger.valueOf(50_000);
    private static final BigInteger FEE = BigInteger.valueOf(1_000);
    private static final BigInteger HIGHEST = BigInteger.valueOf(300_000);
    private static final BigInteger FINAL_AMOUNT = BigInteger.valueOf(250_000);

    /** Members that hold off-chain figures, in channel bodies and in event payloads. */
    private static final Set<String> PRIVATE_FIELDS = Set.of("highestVoucher", "amount", "nonce", "signature",
            "voucherCount", "increment", "acceptedAt", "hold", "holdUntil", "chargedTotal", "charged", "cost",
            "settledAt", "claimable", "netClaimable", "refundable", "atRisk", "authorizedCloseAmount", "finalAmount",
            "providerSignature", "lastActivity", "lastSequence", "sequence");

    @Autowired
    CommandGateway commands;
    @Autowired
    ReadModelProgress progress;

    private DigestSigner consumer;
    private DigestSigner provider;
    private String channelId;
    private String plainSignature;
    private String meteredSignature;
    private String closeSignature;

    @BeforeEach
    void aChannelWithEveryKindOfFigure() {
        String run = UUID.randomUUID().toString();
        consumer = TestKeys.wallet("privacy-consumer-" + run);
        provider = TestKeys.wallet("privacy-provider-" + run);
        channelId = Channels.open(commands, consumer, provider, DEPOSIT, now() + 86_400);

        Http.Reply plain = Http.postJson(baseUrl() + "/api/channels/" + channelId + "/vouchers",
                Channels.voucherJson(consumer, channelId, 70_000, 1));
        assertThat(plain.status()).as(plain.body()).isEqualTo(200);
        plainSignature = Channels.sign(consumer, channelId, BigInteger.valueOf(70_000), BigInteger.ONE);

        BigInteger two = BigInteger.TWO;
        meteredSignature = Channels.sign(consumer, channelId, HIGHEST, two);
        commands.sendAndWait(new AcceptVoucher(channelId, HIGHEST, two, meteredSignature, consumer.address(), now(),
                new MeteredRequest(BigInteger.valueOf(150_000), now() + 600, provider.address())));
        commands.sendAndWait(new SettleRequest(channelId, two, BigInteger.valueOf(120_000), now()));
        commands.sendAndWait(new RecordClaim(channelId, CLAIMED, FEE, Channels.nextChainRef()));
        closeSignature = Hex.encode(provider.sign(Channels.TYPED_DATA.closeAuthorizationDigest(Hex.decode(channelId),
                FINAL_AMOUNT)));
        commands.sendAndWait(new AuthorizeClose(channelId, FINAL_AMOUNT, closeSignature));
    }

    private static long now() {
        return Instant.now().getEpochSecond();
    }

    private String channelPath() {
        return "/api/channels/" + channelId;
    }

    private String eventsPath() {
        return channelPath() + "/events";
    }

    private String listingPath() {
        return "/api/channels?provider=" + Hex.toChecksumAddress(provider.address());
    }

    private Http.Reply anonymous(String path) {
        return Http.get(baseUrl() + path);
    }

    private Http.Reply signedBy(DigestSigner wallet, String path) {
        return Http.send(WalletSigning.signedGet(baseUrl(), path, wallet, now()));
    }

    private Http.Reply withAdminToken(String token, String path) {
        return Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + path)).GET()
                .header("Authorization", "Bearer " + token));
    }

    private static JsonNode ok(Http.Reply reply) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.raw().headers().firstValue("Cache-Control")).as("Cache-Control").hasValue("no-store");
        assertThat(String.join(",", reply.raw().headers().allValues("Vary")))
                .contains("Authorization", "X-CHAN-Auth-Address", "X-CHAN-Auth-Signature");
        return reply.json();
    }

    private JsonNode listed(JsonNode page) {
        for (JsonNode channel : page.path("channels")) {
            if (channel.path("channelId").asText().equals(channelId)) {
                return channel;
            }
        }
        throw new AssertionError("channel " + channelId + " is not in the listing " + page);
    }

    /** Every member name anywhere in the body. */
    private static Set<String> fieldNames(JsonNode node) {
        Set<String> names = new HashSet<>();
        if (node.isObject()) {
            node.fieldNames().forEachRemaining(names::add);
        }
        node.forEach(child -> names.addAll(fieldNames(child)));
        return names;
    }

    /** Every scalar value anywhere in the body, as text. */
    private static Set<String> values(JsonNode node) {
        Set<String> values = new HashSet<>();
        if (node.isValueNode()) {
            values.add(node.asText());
        }
        node.forEach(child -> values.addAll(values(child)));
        return values;
    }

    private void assertOnChainFactsOnly(JsonNode body) {
        assertThat(fieldNames(body)).as("off-chain members").doesNotContainAnyElementsOf(PRIVATE_FIELDS);
        assertThat(values(body)).as("off-chain figures").doesNotContain(plainSignature, meteredSignature,
                closeSignature, "70000", "300000", "230000", "150000", "120000", "250000", "9700000");
    }

    private void assertOnChainChannel(JsonNode channel) {
        assertOnChainFactsOnly(channel);
        assertThat(channel.path("consumer").asText()).isEqualTo(Hex.toChecksumAddress(consumer.address()));
        assertThat(channel.path("provider").asText()).isEqualTo(Hex.toChecksumAddress(provider.address()));
        assertThat(channel.path("deposit").asText()).isEqualTo(DEPOSIT.toString());
        assertThat(channel.path("expiryEpochSeconds").asLong()).isPositive();
        assertThat(channel.path("status").asText()).isEqualTo("open");
        assertThat(channel.path("claimed").asText()).isEqualTo(CLAIMED.toString());
        assertThat(channel.path("feesPaid").asText()).isEqualTo(FEE.toString());
    }

    private void assertFullChannel(JsonNode channel) {
        assertThat(channel.path("highestVoucher").path("amount").asText()).isEqualTo(HIGHEST.toString());
        assertThat(channel.path("highestVoucher").path("nonce").asText()).isEqualTo("2");
        assertThat(channel.path("highestVoucher").path("signature").asText()).isEqualTo(meteredSignature);
        assertThat(channel.path("voucherCount").asLong()).isEqualTo(2);
        assertThat(channel.path("claimable").asText()).isEqualTo(HIGHEST.subtract(CLAIMED).toString());
        assertThat(channel.path("refundable").asText()).isEqualTo(DEPOSIT.subtract(HIGHEST).toString());
        assertThat(channel.path("authorizedCloseAmount").asText()).isEqualTo(FINAL_AMOUNT.toString());
        assertThat(channel.has("atRisk")).isTrue();
        assertThat(channel.path("lastSequence").asLong()).isEqualTo(5);
        assertThat(channel.path("claimed").asText()).isEqualTo(CLAIMED.toString());
    }

    private static List<String> types(JsonNode events) {
        List<String> types = new ArrayList<>();
        events.forEach(event -> types.add(event.path("type").asText()));
        return types;
    }

    private void assertFullHistory(JsonNode events) {
        assertThat(types(events)).containsExactly("ChannelOpened", "VoucherAccepted", "VoucherAccepted",
                "RequestSettled", "ChannelClaimed", "CloseAuthorized");
        assertThat(events.get(1).path("sequence").asLong()).isEqualTo(1);
        assertThat(events.get(1).path("signature").asText()).isEqualTo(plainSignature);
        assertThat(events.get(2).path("payload").path("hold").asText()).isEqualTo("150000");
        assertThat(events.get(3).path("payload").path("chargedTotal").asText()).isEqualTo("120000");
        assertThat(events.get(5).path("payload").path("finalAmount").asText()).isEqualTo(FINAL_AMOUNT.toString());
        assertThat(events.get(5).path("signature").asText()).isEqualTo(closeSignature);
    }

    private void assertSeesEverything(DigestSigner party) {
        assertFullChannel(ok(signedBy(party, channelPath())));
        assertFullHistory(ok(signedBy(party, eventsPath())));
        ReadModelsCaughtUp.await(progress, Duration.ofSeconds(30));
        String ownListing = party == provider ? listingPath()
                : "/api/channels?consumer=" + Hex.toChecksumAddress(consumer.address());
        assertFullChannel(listed(ok(signedBy(party, ownListing))));
    }

    @Test
    void anonymousCallersSeeTheOnChainFactsOfAChannelOnly() {
        assertOnChainChannel(ok(anonymous(channelPath())));
    }

    @Test
    void anonymousCallersSeeOnlyTheOnChainEventsOfAHistoryWithoutSequenceNumbers() {
        JsonNode events = ok(anonymous(eventsPath()));

        assertThat(types(events)).containsExactly("ChannelOpened", "ChannelClaimed");
        assertOnChainFactsOnly(events);
        assertThat(events.get(0).path("chainRef").path("blockNumber").asLong()).isPositive();
        assertThat(events.get(1).path("payload").path("payout").asText()).isEqualTo(CLAIMED.toString());
        assertThat(events.get(1).path("payload").path("fee").asText()).isEqualTo(FEE.toString());
        assertThat(events.get(1).path("chainRef").path("txHash").asText()).startsWith("0x");
    }

    @Test
    void anonymousListingsShowTheOnChainFactsOnly() {
        ReadModelsCaughtUp.await(progress, Duration.ofSeconds(30));

        assertOnChainChannel(listed(ok(anonymous(listingPath()))));
    }

    @Test
    void theConsumerSeesEverythingOnEachEndpoint() {
        assertSeesEverything(consumer);
    }

    @Test
    void theProviderSeesEverythingOnEachEndpoint() {
        assertSeesEverything(provider);
    }

    @Test
    void theAdminSeesEverythingOnEachEndpoint() {
        ReadModelsCaughtUp.await(progress, Duration.ofSeconds(30));

        assertFullChannel(ok(AdminReads.get(baseUrl() + channelPath())));
        assertFullHistory(ok(AdminReads.get(baseUrl() + eventsPath())));
        assertFullChannel(listed(ok(AdminReads.get(baseUrl() + listingPath()))));
    }

    @Test
    void aStrangersWalletIsRefusedAChannelAndItsHistory() {
        DigestSigner stranger = TestKeys.wallet("privacy-stranger");

        for (Http.Reply reply : List.of(signedBy(stranger, channelPath()), signedBy(stranger, eventsPath()))) {
            assertThat(reply.status()).as(reply.body()).isEqualTo(403);
            assertThat(reply.json().path("code").asText()).isEqualTo("wallet_not_a_party");
        }
    }

    @Test
    void aSignedListingShowsFullFiguresOnlyForTheSignersOwnChannels() {
        DigestSigner otherConsumer = TestKeys.wallet("privacy-other-consumer-" + UUID.randomUUID());
        String othersChannel = Channels.open(commands, otherConsumer, provider, DEPOSIT, now() + 86_400);
        Http.Reply voucher = Http.postJson(baseUrl() + "/api/channels/" + othersChannel + "/vouchers",
                Channels.voucherJson(otherConsumer, othersChannel, 70_000, 1));
        assertThat(voucher.status()).as(voucher.body()).isEqualTo(200);
        ReadModelsCaughtUp.await(progress, Duration.ofSeconds(30));

        JsonNode asConsumer = ok(signedBy(consumer, listingPath()));
        JsonNode asStranger = ok(signedBy(TestKeys.wallet("privacy-stranger"), listingPath()));

        assertFullChannel(listed(asConsumer));
        for (JsonNode channel : asConsumer.path("channels")) {
            if (channel.path("channelId").asText().equals(othersChannel)) {
                assertThat(fieldNames(channel)).doesNotContainAnyElementsOf(PRIVATE_FIELDS);
            }
        }
        assertThat(asConsumer.path("channels")).hasSize(2);
        assertThat(asStranger.path("channels")).hasSize(2);
        assertThat(fieldNames(asStranger)).doesNotContainAnyElementsOf(PRIVATE_FIELDS);
    }

    @Test
    void aWrongAdminTokenIsUnauthorizedNotAnonymous() {
        for (String path : List.of(channelPath(), eventsPath(), listingPath())) {
            Http.Reply wrong = withAdminToken("not-" + AdminReads.TOKEN, path);
            Http.Reply notBearer = Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + path)).GET()
                    .header("Authorization", "Basic " + AdminReads.TOKEN));

            for (Http.Reply reply : List.of(wrong, notBearer)) {
                assertThat(reply.status()).as(path + ": " + reply.body()).isEqualTo(401);
                assertThat(reply.json().path("code").asText()).isEqualTo("admin_unauthorized");
            }
        }
    }

    @Test
    void aBadWalletSignatureIsUnauthorizedNotAnonymous() {
        // signed for the channel, sent to the listing
        HttpRequest.Builder misdirected = WalletSigning.signedGet(baseUrl(), channelPath(), consumer, now())
                .uri(URI.create(baseUrl() + listingPath()));

        Http.Reply reply = Http.send(misdirected);

        assertThat(reply.status()).as(reply.body()).isEqualTo(401);
        assertThat(reply.json().path("code").asText()).isEqualTo("wallet_auth_wrong_signer");
    }

    @Test
    void theAtRiskFilterIsOnlyForThoseWhoSeeTheFiguresItFiltersBy() {
        ReadModelsCaughtUp.await(progress, Duration.ofSeconds(30));
        String atRisk = listingPath() + "&atRisk=false";

        for (Http.Reply refused : List.of(anonymous(atRisk), signedBy(consumer, atRisk),
                signedBy(TestKeys.wallet("privacy-stranger"), atRisk))) {
            assertThat(refused.status()).as(refused.body()).isEqualTo(403);
            assertThat(refused.json().path("code").asText()).isEqualTo("private_filter");
            assertThat(refused.json().path("parameter").asText()).isEqualTo("atRisk");
        }
        assertFullChannel(listed(ok(signedBy(provider, atRisk))));
        assertFullChannel(listed(ok(AdminReads.get(baseUrl() + atRisk))));
    }
}
