package io.chanledger.api.provider.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.api.config.Role;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.support.AdminReads;
import io.chanledger.api.support.ChannelStates;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.RoleInstance;
import io.chanledger.api.ledger.wallet.WalletSigning;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ConfigurableApplicationContext;
import org.web3j.crypto.Hash;

/**
 * A wallet signature is good at one party only. Provider A is the shared test context; provider B
 * a second provider with a wallet of its own, on the same devnet and contract, where the same
 * consumer has a channel too. What the consumer signed for A, A cannot spend at B within the
 * signature's validity (a close that would stop the consumer's channel there, a read of the
 * consumer's private figures there), nor can anyone send its headers to A with another body.
 */
class WalletSignatureElsewhereTest extends LedgerIntegrationTest {

    private static final String FLAT_MODEL = "echo-flat";
    private static final String PROMPT = "a request to a flat-priced model, which costs the same whatever its length";
    private static final byte[] PROVIDER_B_KEY = Hash.sha3("wallet-signature-elsewhere-provider-b"
            .getBytes(StandardCharsets.UTF_8));

    private static ConfigurableApplicationContext providerB;
    private static String baseB;

    @Autowired
    ProviderIdentity identity;
    @Autowired
    PriceList prices;
    @Autowired
    ChannelHistory history;

    @TempDir
    static Path keyDirectory;

    @BeforeAll
    static void startProviderB() throws IOException {
        // in a file (the service refuses a key on its command line), in place of the tests' own key
        Path key = Files.writeString(keyDirectory.resolve("provider-b.key"), Hex.encode(PROVIDER_B_KEY));
        providerB = RoleInstance.start(Role.PROVIDER, "chan_ledger_signature_elsewhere", Map.of(
                "chan.gateway.provider-key", "",
                "chan.gateway.provider-key-file", key.toString(),
                "chan.gateway.watchtower.enabled", false));
        baseB = RoleInstance.baseUrl(providerB);
    }

    @AfterAll
    static void stopProviderB() {
        providerB.close();
    }

    private static String providerBAddress() {
        return new DigestSigner(PROVIDER_B_KEY.clone()).address();
    }

    /** The consumer's channel at A, recorded in A's ledger. */
    private Agent openedAtA(Agent consumer) {
        consumer.open(identity.address(), BigInteger.valueOf(5_000_000), 86_400);
        ChannelStates.awaitState(history, consumer.channelId, s -> true, "A's ledger to record the channel");
        return consumer;
    }

    /** The same consumer's channel at B, recorded in B's ledger. */
    private Agent openedAtB(Agent consumer) {
        Agent atB = consumer.at(baseB);
        atB.open(providerBAddress(), BigInteger.valueOf(5_000_000), 86_400);
        await("B's ledger to record the channel").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> Http.get(baseB + "/api/channels/" + atB.channelId).status() == 200);
        return atB;
    }

    private Http.Reply pay(Agent agent, BigInteger total) {
        BigInteger hold = GatewayPrices.hold(prices, FLAT_MODEL, PROMPT, null);
        return agent.chat(agent.nextVoucher(agent.authorise(total.add(hold))),
                Agent.chatBody(FLAT_MODEL, PROMPT, null, false));
    }

    private static BigInteger charged(Http.Reply reply) {
        return new BigInteger(reply.raw().headers().firstValue("X-CHAN-Total").orElseThrow());
    }

    private static String closeBody(String channelId) {
        return "{\"channelId\":\"" + channelId + "\"}";
    }

    /** {@code signed}'s headers, sent to {@code url} with {@code body} (none for a GET). */
    private static Http.Reply replay(HttpRequest signed, String url, String body) {
        HttpRequest.Builder copy = HttpRequest.newBuilder(URI.create(url));
        signed.headers().map().forEach((name, values) -> values.forEach(value -> copy.header(name, value)));
        return Http.send(body == null ? copy.GET() : copy.POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static Http.Reply asSigned(HttpRequest signed) {
        return Http.send(HttpRequest.newBuilder(signed, (name, value) -> true));
    }

    private static int eventsAt(String base, String channelId) {
        Http.Reply events = AdminReads.get(base + "/api/channels/" + channelId + "/events");
        assertThat(events.status()).as(events.body()).isEqualTo(200);
        return events.json().size();
    }

    private static void assertUnauthorized(Http.Reply reply, String code) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(401);
        assertThat(reply.json().path("error").path("code").asText()).isEqualTo(code);
    }

    @Test
    void aConsumersSignedCloseForAIsRefusedAtBAndBsChannelGoesOnPaying() {
        Agent atA = openedAtA(Agent.create(devnet(), baseUrl()));
        Agent atB = openedAtB(atA);
        Http.Reply paidAtB = pay(atB, BigInteger.ZERO);
        assertThat(paidAtB.status()).as(paidAtB.body()).isEqualTo(200);
        int eventsAtB = eventsAt(baseB, atB.channelId);
        HttpRequest closeAtA = WalletSigning.signedPost(baseUrl(), identity.address(), "/v1/close-channel",
                closeBody(atA.channelId), atA.signer(), Instant.now().getEpochSecond()).build();

        // A, having received it, sends the same headers to B: with B's channel, and as signed
        Http.Reply withBsChannel = replay(closeAtA, baseB + "/v1/close-channel", closeBody(atB.channelId));
        Http.Reply asSigned = replay(closeAtA, baseB + "/v1/close-channel", closeBody(atA.channelId));

        assertUnauthorized(withBsChannel, "wallet_auth_wrong_signer");
        assertUnauthorized(asSigned, "wallet_auth_wrong_signer");
        assertThat(withBsChannel.body()).contains(providerBAddress());
        assertThat(eventsAt(baseB, atB.channelId)).isEqualTo(eventsAtB);
        Http.Reply nextAtB = pay(atB, charged(paidAtB));
        assertThat(nextAtB.status()).as("B's channel still pays: %s", nextAtB.body()).isEqualTo(200);
        // at A, where it was meant to go, it is still good
        Http.Reply atItsParty = asSigned(closeAtA);
        assertThat(atItsParty.status()).as(atItsParty.body()).isEqualTo(200);
    }

    @Test
    void aConsumersSignedReadForAShowsNothingAtB() {
        Agent atA = openedAtA(Agent.create(devnet(), baseUrl()));
        Agent atB = openedAtB(atA);
        Http.Reply paidAtB = pay(atB, BigInteger.ZERO);
        assertThat(paidAtB.status()).as(paidAtB.body()).isEqualTo(200);
        String mine = "/api/channels?consumer=" + atA.address();
        HttpRequest readAtA = WalletSigning.signedGet(baseUrl(), identity.address(), mine, atA.signer(),
                Instant.now().getEpochSecond()).build();

        Http.Reply replayedAtB = replay(readAtA, baseB + mine, null);

        assertThat(replayedAtB.status()).as(replayedAtB.body()).isEqualTo(401);
        assertThat(replayedAtB.json().path("code").asText()).isEqualTo("wallet_auth_wrong_signer");
        assertThat(replayedAtB.json().path("audience").asText()).isEqualTo(providerBAddress());
        assertThat(replayedAtB.body()).doesNotContain(atB.channelId).doesNotContain("highestVoucher");
        // at A, where it was meant to go, it is good
        Http.Reply atItsParty = asSigned(readAtA);
        assertThat(atItsParty.status()).as(atItsParty.body()).isEqualTo(200);
        assertThat(atItsParty.body()).contains(atA.channelId);
    }

    @Test
    void theHeadersOfASignedCloseSentToAWithAnotherBodyAreRefused() {
        Agent first = openedAtA(Agent.create(devnet(), baseUrl()));
        String firstChannel = first.channelId;
        Agent second = openedAtA(first.at(baseUrl()));
        Http.Reply paid = pay(second, BigInteger.ZERO);
        assertThat(paid.status()).as(paid.body()).isEqualTo(200);
        int events = history.events(second.channelId).size();
        HttpRequest closeFirst = WalletSigning.signedPost(baseUrl(), identity.address(), "/v1/close-channel",
                closeBody(firstChannel), first.signer(), Instant.now().getEpochSecond()).build();

        Http.Reply otherBody = replay(closeFirst, baseUrl() + "/v1/close-channel", closeBody(second.channelId));
        Http.Reply spaced = replay(closeFirst, baseUrl() + "/v1/close-channel",
                "{\"channelId\": \"" + firstChannel + "\"}");

        assertUnauthorized(otherBody, "wallet_auth_wrong_signer");
        assertUnauthorized(spaced, "wallet_auth_wrong_signer");
        assertThat(history.events(second.channelId)).hasSize(events);
        Http.Reply next = pay(second, charged(paid));
        assertThat(next.status()).as("the other channel still pays: %s", next.body()).isEqualTo(200);
        // the refusals spent nothing: the close as signed is still good
        Http.Reply asSigned = asSigned(closeFirst);
        assertThat(asSigned.status()).as(asSigned.body()).isEqualTo(200);
    }
}
