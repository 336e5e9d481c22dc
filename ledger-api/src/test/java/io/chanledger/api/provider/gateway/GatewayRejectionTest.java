package io.chanledger.api.provider.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import io.chanledger.api.ledger.wallet.WalletSigning;
import io.chanledger.domain.channel.CloseKind;
import io.chanledger.domain.channel.OpenChannel;
import io.chanledger.domain.channel.RecordClose;
import io.chanledger.domain.channel.RequestSettled;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.eventhandling.DomainEventMessage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Every way the provider interface refuses a paid request, each with the protocol's code, and
 * none of them recording anything in the ledger. Channels are opened in the ledger as the chain
 * listener would record them; vouchers are signed in the deployment's signing domain.
 */
class GatewayRejectionTest extends LedgerIntegrationTest {

    private static final DigestSigner STRANGER = TestKeys.wallet("gateway-stranger");
    private static final BigInteger DEPOSIT = BigInteger.valueOf(2_000_000);
    private static final String PROMPT = "say something";

    @Autowired
    CommandGateway commands;
    @Autowired
    ProviderIdentity identity;
    @Autowired
    PriceList prices;
    @Autowired
    ChannelHistory history;

    private DigestSigner consumer;
    private String channelId;

    @BeforeEach
    void openChannel() {
        consumer = TestKeys.wallet("gateway-consumer-" + System.nanoTime());
        channelId = open(identity.address());
    }

    private String open(String provider) {
        String id = Channels.randomChannelId();
        commands.sendAndWait(new OpenChannel(id, consumer.address(), provider, DEPOSIT,
                Instant.now().getEpochSecond() + 86_400, Channels.nextChainRef()));
        return id;
    }

    private String voucher(String channel, long amount, long nonce) {
        return Channels.voucherJson(consumer, channel, amount, nonce);
    }

    private Http.Reply chat(String voucher) {
        return chat(voucher, Agent.chatBody("echo-1", PROMPT, null, false));
    }

    private Http.Reply chat(String voucher, String body) {
        return Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/v1/chat/completions"))
                .header("Content-Type", "application/json").header("X-CHAN-Voucher", voucher)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private long hold() {
        return GatewayPrices.hold(prices, "echo-1", PROMPT, null).longValueExact();
    }

    private long cost() {
        return GatewayPrices.cost(prices, "echo-1", PROMPT, GatewayPrices.ECHO_ANSWER_TOKENS).longValueExact();
    }

    private List<DomainEventMessage<?>> events() {
        return history.events(channelId);
    }

    private static void assertRefused(Http.Reply reply, String code) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(402);
        assertThat(GatewayReplies.header(reply, "X-CHAN-Error")).isEqualTo(code);
        assertThat(GatewayReplies.header(reply, "X-Payment-Protocol")).isEqualTo("chan-v2");
        assertThat(reply.json().path("error").path("code").asText()).isEqualTo(code);
        assertThat(reply.json().path("error").path("type").asText()).isEqualTo("payment_required");
        assertThat(reply.json().path("error").path("message").asText()).isNotBlank();
        assertThat(reply.body()).doesNotContain("Exception");
    }

    @Test
    void aVoucherThatIsNotJsonIsAnInvalidFormat() {
        assertRefused(chat("channel=" + channelId), "invalid_voucher_format");
    }

    @Test
    void aVoucherWithoutASignatureIsAnInvalidFormat() {
        assertRefused(chat("{\"channelId\":\"" + channelId + "\",\"amount\":\"1000\",\"nonce\":\"1\"}"),
                "invalid_voucher_format");
    }

    @Test
    void aVoucherWithANonNumericAmountIsAnInvalidFormat() {
        assertRefused(chat(Agent.voucherJson(channelId, "1e6", "1", "0x" + "ab".repeat(65))), "invalid_voucher_format");
    }

    @Test
    void aVoucherForAChannelNobodyOpenedIsChannelNotFound() {
        String unknown = Channels.randomChannelId();
        assertRefused(chat(voucher(unknown, 100_000, 1)), "channel_not_found");
        assertThat(history.events(unknown)).isEmpty();
    }

    @Test
    void aVoucherForAnotherProvidersChannelIsWrongProvider() {
        String elsewhere = open(STRANGER.address());
        assertRefused(chat(voucher(elsewhere, 100_000, 1)), "wrong_provider");
        assertThat(history.events(elsewhere)).hasSize(1);
    }

    @Test
    void aVoucherBelowTheHoldIsInsufficientFundsAndSaysTheHoldAndWhatTheVoucherLeaves() {
        Http.Reply reply = chat(voucher(channelId, hold() - 1, 1));

        assertRefused(reply, "insufficient_funds");
        assertThat(GatewayReplies.header(reply, "X-CHAN-Required")).isEqualTo(Long.toString(hold()));
        assertThat(GatewayReplies.header(reply, "X-CHAN-Provided")).isEqualTo(Long.toString(hold() - 1));
        assertThat(events()).hasSize(1);
    }

    @Test
    void aVoucherMustAlsoCoverWhatWasChargedBefore() {
        assertThat(chat(voucher(channelId, hold(), 1)).status()).isEqualTo(200);

        Http.Reply reply = chat(voucher(channelId, hold(), 2));

        assertRefused(reply, "insufficient_funds");
        assertThat(GatewayReplies.header(reply, "X-CHAN-Required")).as("this request's hold").isEqualTo(Long.toString(hold()));
        assertThat(GatewayReplies.header(reply, "X-CHAN-Provided")).as("the amount less the charged total")
                .isEqualTo(Long.toString(hold() - cost()));
    }

    @Test
    void aVoucherAboveTheDepositIsExceedsDeposit() {
        assertRefused(chat(voucher(channelId, DEPOSIT.longValueExact() + 1, 1)), "exceeds_deposit");
    }

    @Test
    void aReplayedVoucherGetsItsKeptAnswerAndIsChargedOnce() {
        String voucher = voucher(channelId, 100_000, 1);
        Http.Reply first = chat(voucher);
        assertThat(first.status()).isEqualTo(200);

        Http.Reply again = chat(voucher);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.body()).isEqualTo(first.body());
        assertThat(GatewayReplies.header(again, "X-CHAN-Replay")).isEqualTo("true");
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isEqualTo(BigInteger.valueOf(cost()));
        // the same nonce with another amount is not that voucher: refused
        assertRefused(chat(voucher(channelId, 100_001, 1)), "invalid_nonce");
    }

    @Test
    void aNonceBelowTheLastOneIsAnInvalidNonce() {
        assertThat(chat(voucher(channelId, 100_000, 5)).status()).isEqualTo(200);
        assertRefused(chat(voucher(channelId, 200_000, 4)), "invalid_nonce");
    }

    @Test
    void aSignatureTheContractWouldRefuseIsAnInvalidSignature() {
        assertRefused(chat(Agent.voucherJson(channelId, "100000", "1", "0x" + "ab".repeat(64))), "invalid_signature");
    }

    @Test
    void aVoucherSignedByAnyoneButTheConsumerIsAnInvalidSignature() {
        assertRefused(chat(Channels.voucherJson(STRANGER, channelId, 100_000, 1)), "invalid_signature");
        assertThat(events()).hasSize(1);
    }

    @Test
    void aClosedChannelIsChannelNotFound() {
        commands.sendAndWait(new RecordClose(channelId, DEPOSIT, CloseKind.AFTER_EXPIRY, Channels.nextChainRef()));
        assertRefused(chat(voucher(channelId, 100_000, 1)), "channel_not_found");
    }

    @Test
    void aChannelWhoseCloseTheConsumerAskedForPaysForNothingMore() {
        assertThat(chat(voucher(channelId, 100_000, 1)).status()).isEqualTo(200);
        Http.Reply close = Http.send(WalletSigning.signedPost(baseUrl(), "/v1/close-channel",
                "{\"channelId\":\"" + channelId + "\"}", consumer, Instant.now().getEpochSecond()));
        assertThat(close.status()).as(close.body()).isEqualTo(200);

        assertRefused(chat(voucher(channelId, 200_000, 2)), "channel_not_found");
    }

    @Test
    void anUnknownModelIsRefusedBeforeTheVoucherIsUsed() {
        Http.Reply reply = chat(voucher(channelId, 100_000, 1), Agent.chatBody("gpt-17", PROMPT, null, false));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(GatewayReplies.header(reply, "X-CHAN-Error")).isEqualTo("model_not_supported");
        assertThat(reply.json().path("error").path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(reply.json().path("error").path("code").asText()).isEqualTo("model_not_supported");
        assertThat(events()).hasSize(1);
        assertThat(chat(voucher(channelId, 100_000, 1)).status()).isEqualTo(200);
    }

    @Test
    void aBodyThatIsNotAChatRequestIsABadRequest() {
        Http.Reply reply = chat(voucher(channelId, 100_000, 1), "{\"model\":\"echo-1\"}");

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().path("error").path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(chat(voucher(channelId, 100_000, 1), "not json").status()).isEqualTo(400);
        assertThat(chat(voucher(channelId, 100_000, 1), Agent.chatBody("echo-1", PROMPT, -3, false)).status())
                .isEqualTo(400);
    }

    @Test
    void twoConcurrentRequestsWithTheSameVoucherAreServedAndChargedOnce() throws Exception {
        // each sender gets the one answer (served, or kept and sent again), is told it is still
        // running, or is refused: never a second request served for one payment
        String voucher = voucher(channelId, 100_000, 1);
        int clients = 8;
        CountDownLatch start = new CountDownLatch(1);
        List<Integer> statuses;
        java.util.Set<String> bodies = java.util.concurrent.ConcurrentHashMap.newKeySet();
        try (ExecutorService pool = Executors.newFixedThreadPool(clients)) {
            Callable<Integer> request = () -> {
                start.await();
                Http.Reply reply = chat(voucher);
                if (reply.status() == 200) {
                    bodies.add(reply.body());
                }
                return reply.status();
            };
            List<Future<Integer>> replies = new java.util.ArrayList<>();
            for (int i = 0; i < clients; i++) {
                replies.add(pool.submit(request));
            }
            start.countDown();
            statuses = new java.util.ArrayList<>();
            for (Future<Integer> reply : replies) {
                statuses.add(reply.get());
            }
        }

        assertThat(statuses).contains(200);
        assertThat(bodies).hasSize(1);
        assertThat(statuses).filteredOn(s -> s != 200).allMatch(s -> s == 402 || s == 409);
        assertThat(history.state(channelId).orElseThrow().chargedTotal()).isEqualTo(BigInteger.valueOf(cost()));
        assertThat(events().stream().filter(e -> e.getPayload() instanceof RequestSettled)).hasSize(1);
    }

    @Test
    void closeChannelNamesWhatIsWrongWithTheRequest() {
        assertThat(Http.postJson(baseUrl() + "/v1/close-channel", "{\"channelId\":\"0x12\"}").status()).isEqualTo(400);
        Http.Reply unknown = Http.postJson(baseUrl() + "/v1/close-channel",
                "{\"channelId\":\"" + Channels.randomChannelId() + "\"}");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(GatewayReplies.header(unknown, "X-CHAN-Error")).isEqualTo("channel_not_found");
        String elsewhere = open(STRANGER.address());
        assertThat(Http.postJson(baseUrl() + "/v1/close-channel", "{\"channelId\":\"" + elsewhere + "\"}").status())
                .isEqualTo(403);
    }

    @Test
    void closeChannelSignsTheChargedTotalWithTheProvidersKey() {
        assertThat(chat(voucher(channelId, 100_000, 1)).status()).isEqualTo(200);

        Http.Reply reply = Http.postJson(baseUrl() + "/v1/close-channel", "{\"channelId\":\"" + channelId + "\"}");

        assertThat(reply.status()).isEqualTo(200);
        BigInteger finalAmount = new BigInteger(reply.json().path("finalAmount").asText());
        assertThat(finalAmount).isEqualTo(BigInteger.valueOf(cost()));
        byte[] digest = Channels.TYPED_DATA.closeAuthorizationDigest(Hex.decode(channelId), finalAmount);
        var verdict = io.chanledger.domain.eip712.ContractSignatureRule.recover(digest,
                Hex.decode(reply.json().path("signature").asText()));
        assertThat(verdict).isEqualTo(new io.chanledger.domain.eip712.SignatureVerdict.Recovered(identity.address()));
        assertThat(history.state(channelId).orElseThrow().authorizedCloseAmount()).isEqualTo(finalAmount);
    }
}
