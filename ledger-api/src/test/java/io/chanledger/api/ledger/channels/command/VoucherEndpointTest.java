package io.chanledger.api.ledger.channels.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.http.HotPathHandlerMapping;
import io.chanledger.api.support.AdminReads;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import io.chanledger.domain.channel.ChannelClosed;
import io.chanledger.domain.channel.CloseKind;
import io.chanledger.domain.channel.ExpireChannel;
import io.chanledger.domain.channel.RecordClose;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

class VoucherEndpointTest extends LedgerIntegrationTest {

    private static final DigestSigner CONSUMER = TestKeys.wallet("consumer-1");
    private static final DigestSigner PROVIDER = TestKeys.wallet("provider-1");
    private static final DigestSigner STRANGER = TestKeys.wallet("stranger-1");
    private static final BigInteger DEPOSIT = BigInteger.valueOf(10_000_000);

    @Autowired
    CommandGateway commands;

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping handlerMapping;

    @Autowired
    MeterRegistry meters;

    private String channelId;

    @BeforeEach
    void openChannel() {
        channelId = Channels.open(commands, CONSUMER, PROVIDER, DEPOSIT, inOneDay());
    }

    private static long inOneDay() {
        return Instant.now().getEpochSecond() + 86_400;
    }

    private Http.Reply post(String body) {
        return post(channelId, body);
    }

    private Http.Reply post(String channel, String body) {
        return Http.postJson(baseUrl() + "/api/channels/" + channel + "/vouchers", body);
    }

    private void assertProblem(Http.Reply reply, int status, String code) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(status);
        assertThat(reply.contentType()).startsWith("application/problem+json");
        JsonNode problem = reply.json();
        assertThat(problem.path("code").asText()).isEqualTo(code);
        assertThat(problem.path("status").asInt()).isEqualTo(status);
        assertThat(problem.path("detail").asText()).isNotBlank();
        assertThat(reply.body()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    private int eventCount() {
        return AdminReads.get(baseUrl() + "/api/channels/" + channelId + "/events").json().size();
    }

    @Test
    void theAnswerIsWrittenAsTheConvertersWouldWriteIt() {
        Http.Reply reply = post(Channels.voucherJson(CONSUMER, channelId, 1_000, 1));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.contentType()).startsWith("application/json");
        JsonNode receipt = reply.json();
        assertThat(receipt.path("amount").isTextual()).as("amounts are decimal strings").isTrue();
        assertThat(receipt.path("duplicate").isBoolean()).isTrue();
    }

    @Test
    void theOpenApiDocumentStillDescribesTheVoucherExchange() {
        JsonNode post = Http.get(baseUrl() + "/v3/api-docs").json().path("paths")
                .path("/api/channels/{channelId}/vouchers").path("post");

        assertThat(post.path("requestBody").path("required").asBoolean()).isTrue();
        assertThat(post.path("requestBody").path("content").has("application/json")).isTrue();
        assertThat(post.path("responses").path("200").path("content").path("application/json").path("schema")
                .path("$ref").asText()).endsWith("/VoucherReceiptResponse");
        assertThat(post.path("parameters").findValuesAsText("name")).containsExactly("channelId");
    }

    @Test
    void acceptsAVoucherAndAnswersWithTheNewBalance() {
        Http.Reply reply = post(Channels.voucherJson(CONSUMER, channelId, 250_000, 1));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonNode receipt = reply.json();
        assertThat(receipt.path("channelId").asText()).isEqualTo(channelId);
        assertThat(receipt.path("amount").asText()).isEqualTo("250000");
        assertThat(receipt.path("nonce").asText()).isEqualTo("1");
        assertThat(receipt.path("increment").asText()).isEqualTo("250000");
        assertThat(receipt.path("deposit").asText()).isEqualTo("10000000");
        assertThat(receipt.path("remaining").asText()).isEqualTo("9750000");
        assertThat(receipt.path("status").asText()).isEqualTo("open");

        JsonNode state = AdminReads.get(baseUrl() + "/api/channels/" + channelId).json();
        assertThat(state.path("highestVoucher").path("amount").asText()).isEqualTo("250000");
        assertThat(state.path("voucherCount").asLong()).isEqualTo(1);
        assertThat(state.path("consumer").asText()).isEqualTo(Hex.toChecksumAddress(CONSUMER.address()));
    }

    @Test
    void resendingAnAcceptedVoucherGivesTheSameAnswerAndRecordsNothing() {
        String voucher = Channels.voucherJson(CONSUMER, channelId, 300_000, 1);
        JsonNode first = post(voucher).json();
        int events = eventCount();

        Http.Reply again = post(voucher);

        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().path("increment")).isEqualTo(first.path("increment"));
        assertThat(again.json().path("remaining")).isEqualTo(first.path("remaining"));
        assertThat(again.json().path("duplicate").asBoolean()).isTrue();
        assertThat(eventCount()).isEqualTo(events);
    }

    @Test
    void aVoucherOlderThanTheAggregateRemembersIsStillAnsweredAsTheDuplicateItIs() {
        String first = Channels.voucherJson(CONSUMER, channelId, 1_000, 1);
        JsonNode firstAnswer = post(first).json();
        for (int nonce = 2; nonce <= 70; nonce++) {
            assertThat(post(Channels.voucherJson(CONSUMER, channelId, 1_000L * nonce, nonce)).status()).isEqualTo(200);
        }
        int events = eventCount();

        Http.Reply again = post(first);

        assertThat(again.status()).as(again.body()).isEqualTo(200);
        JsonNode receipt = again.json();
        assertThat(receipt.path("duplicate").asBoolean()).isTrue();
        for (String field : new String[]{"channelId", "amount", "nonce", "increment", "deposit", "remaining", "status"}) {
            assertThat(receipt.path(field)).as(field).isEqualTo(firstAnswer.path(field));
        }
        assertThat(eventCount()).isEqualTo(events);
        JsonNode state = AdminReads.get(baseUrl() + "/api/channels/" + channelId).json();
        assertThat(state.path("highestVoucher").path("amount").asText()).isEqualTo("70000");
        assertThat(state.path("voucherCount").asLong()).isEqualTo(70);

        // the same nonce with another amount, or a higher amount on an old nonce, is no re-sent voucher
        assertProblem(post(Channels.voucherJson(CONSUMER, channelId, 1_500, 1)), 409, "amount_not_increasing");
        assertProblem(post(Channels.voucherJson(CONSUMER, channelId, 90_000, 1)), 409, "nonce_not_increasing");
        assertThat(eventCount()).isEqualTo(events);
    }

    @Test
    void theEventHistoryListsEveryEventInOrderWithItsProvenance() {
        post(Channels.voucherJson(CONSUMER, channelId, 100, 1));
        post(Channels.voucherJson(CONSUMER, channelId, 200, 2));

        JsonNode events = AdminReads.get(baseUrl() + "/api/channels/" + channelId + "/events").json();

        assertThat(events).hasSize(3);
        assertThat(events.get(0).path("type").asText()).isEqualTo("ChannelOpened");
        assertThat(events.get(0).path("chainRef").path("blockNumber").asLong()).isPositive();
        assertThat(events.get(1).path("type").asText()).isEqualTo("VoucherAccepted");
        assertThat(events.get(1).path("sequence").asLong()).isEqualTo(1);
        assertThat(events.get(1).path("signature").asText()).startsWith("0x").hasSize(132);
        assertThat(events.get(2).path("payload").path("amount").asText()).isEqualTo("200");
        assertThat(events.get(2).path("payload").path("increment").asText()).isEqualTo("100");
        assertThat(events.get(2).path("timestamp").asText()).isNotBlank();
    }

    @Test
    void rejectsANegativeAmountAsInvalidFormat() {
        assertProblem(post("{\"amount\":\"-1\",\"nonce\":\"1\",\"signature\":\"0x00\"}"), 400, "invalid_voucher_format");
    }

    @Test
    void rejectsAThreeHundredDigitAmountAsInvalidFormat() {
        String amount = "9".repeat(300);
        assertProblem(post("{\"amount\":\"" + amount + "\",\"nonce\":\"1\",\"signature\":\"0x00\"}"), 400,
                "invalid_voucher_format");
    }

    @Test
    void rejectsAnAmountAboveUint256AsInvalidFormat() {
        String aboveMax = BigInteger.ONE.shiftLeft(256).toString();
        assertProblem(post("{\"amount\":\"" + aboveMax + "\",\"nonce\":\"1\",\"signature\":\"0x00\"}"), 400,
                "invalid_voucher_format");
    }

    @Test
    void rejectsANonNumericNonceAsInvalidFormat() {
        assertProblem(post("{\"amount\":\"1\",\"nonce\":\"one\",\"signature\":\"0x00\"}"), 400, "invalid_voucher_format");
    }

    @Test
    void rejectsAFractionalAmountAsInvalidFormat() {
        assertProblem(post("{\"amount\":1.5,\"nonce\":\"1\",\"signature\":\"0x00\"}"), 400, "invalid_voucher_format");
    }

    @Test
    void rejectsAVoucherWithoutSignatureAsInvalidFormat() {
        assertProblem(post("{\"amount\":\"1\",\"nonce\":\"1\"}"), 400, "invalid_voucher_format");
    }

    @Test
    void rejectsANonHexChannelIdAsInvalidFormat() {
        assertProblem(post("0xnothex", Channels.voucherJson(CONSUMER, channelId, 1, 1).replace(channelId, "0xnothex")),
                400, "invalid_voucher_format");
    }

    @Test
    void rejectsAVoucherForAnotherChannelThanThePath() {
        String other = Channels.randomChannelId();
        assertProblem(post(Channels.voucherJson(CONSUMER, other, 1, 1)), 400, "invalid_voucher_format");
    }

    @Test
    void malformedJsonIsACleanBadRequest() {
        assertProblem(post("{\"amount\":"), 400, "malformed_body");
    }

    @Test
    void aJsonArrayIsNotAVoucher() {
        assertProblem(post("[1,2,3]"), 400, "invalid_voucher_format");
    }

    @Test
    void aOneMegabyteBodyIsRefusedUnread() {
        String huge = "{\"amount\":\"" + "1".repeat(1_048_576) + "\"}";
        assertProblem(post(huge), 413, "body_too_large");
    }

    @Test
    void aBodyThatIsNotJsonIsRefused() {
        Http.Reply reply = Http.post(baseUrl() + "/api/channels/" + channelId + "/vouchers", "text/plain", "hello");
        assertProblem(reply, 415, "unsupported_media_type");
    }

    @Test
    void unknownChannelIsNotFound() {
        String unknown = Channels.randomChannelId();
        assertProblem(post(unknown, Channels.voucherJson(CONSUMER, unknown, 1, 1)), 404, "channel_not_found");
    }

    @Test
    void staleAmountIsAConflict() {
        post(Channels.voucherJson(CONSUMER, channelId, 500, 1));
        assertProblem(post(Channels.voucherJson(CONSUMER, channelId, 500, 2)), 409, "amount_not_increasing");
    }

    @Test
    void staleNonceIsAConflict() {
        post(Channels.voucherJson(CONSUMER, channelId, 500, 7));
        assertProblem(post(Channels.voucherJson(CONSUMER, channelId, 600, 7)), 409, "nonce_not_increasing");
    }

    @Test
    void closedChannelIsGone() {
        commands.sendAndWait(new RecordClose(channelId, DEPOSIT, CloseKind.COOPERATIVE, Channels.nextChainRef()));
        assertProblem(post(Channels.voucherJson(CONSUMER, channelId, 1, 1)), 410, "channel_closed");
    }

    @Test
    void expiredChannelIsGone() {
        String expiring = Channels.open(commands, CONSUMER, PROVIDER, DEPOSIT, Instant.now().getEpochSecond() - 10);
        commands.sendAndWait(new ExpireChannel(expiring, Instant.now().getEpochSecond(), 5_000));
        assertProblem(post(expiring, Channels.voucherJson(CONSUMER, expiring, 1, 1)), 410, "channel_expired");
    }

    @Test
    void signatureTheContractWouldRefuseIsUnprocessable() {
        String voucher = Channels.voucherJson(CONSUMER, channelId, 1, 1);
        String signature = voucher.substring(voucher.indexOf("0x", voucher.indexOf("signature")), voucher.length() - 2);
        String compact = signature.substring(0, 2 + 128);
        assertProblem(post(voucher.replace(signature, compact)), 422, "invalid_signature");
    }

    @Test
    void highSTwinOfAValidSignatureIsUnprocessable() {
        BigInteger n = new BigInteger("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141", 16);
        String voucher = Channels.voucherJson(CONSUMER, channelId, 1, 1);
        String signature = voucher.substring(voucher.indexOf("0x", voucher.indexOf("signature")), voucher.length() - 2);
        byte[] sig = Hex.decode(signature);
        BigInteger s = new BigInteger(1, java.util.Arrays.copyOfRange(sig, 32, 64));
        byte[] highS = n.subtract(s).toByteArray();
        byte[] twin = sig.clone();
        System.arraycopy(highS, highS.length - 32, twin, 32, 32);
        twin[64] = (byte) (sig[64] == 27 ? 28 : 27);
        assertProblem(post(voucher.replace(signature, Hex.encode(twin))), 422, "invalid_signature");
    }

    @Test
    void voucherSignedByAStrangerIsUnprocessable() {
        assertProblem(post(Channels.voucherJson(STRANGER, channelId, 1, 1)), 422, "wrong_signer");
    }

    @Test
    void amountAboveTheDepositIsUnprocessable() {
        assertProblem(post(Channels.voucherJson(CONSUMER, channelId, 10_000_001, 1)), 422, "exceeds_deposit");
    }

    @Test
    void aRejectedVoucherChangesNothing() {
        post(Channels.voucherJson(CONSUMER, channelId, 100, 1));
        int events = eventCount();
        post(Channels.voucherJson(STRANGER, channelId, 200, 2));
        post(Channels.voucherJson(CONSUMER, channelId, 10_000_001, 3));
        assertThat(eventCount()).isEqualTo(events);
        assertThat(AdminReads.get(baseUrl() + "/api/channels/" + channelId).json().path("highestVoucher").path("amount").asText())
                .isEqualTo("100");
    }

    @Test
    void readingAChannelWithANonHexIdIsABadRequest() {
        assertProblem(Http.get(baseUrl() + "/api/channels/0x1234"), 400, "invalid_channel_id");
    }

    @Test
    void readingAnUnknownChannelIsNotFound() {
        assertProblem(Http.get(baseUrl() + "/api/channels/" + Channels.randomChannelId()), 404, "channel_not_found");
    }

    @Test
    void anUnknownPathIsACleanNotFound() {
        assertProblem(Http.get(baseUrl() + "/api/no-such-thing"), 404, "not_found");
    }

    @Test
    void metricsCountAcceptedAndRejectedVouchersByReason() {
        post(Channels.voucherJson(STRANGER, channelId, 1, 1));
        String metrics = AdminReads.get(baseUrl() + "/actuator/prometheus").body();
        assertThat(metrics).contains("chan_vouchers_rejected_total{reason=\"wrong_signer\"}");
        assertThat(metrics).contains("chan_vouchers_accepted_total");
        assertThat(metrics).contains("chan_voucher_admission_seconds");
    }

    @Test
    void theVoucherEndpointIsLookedUpFirstAndTimedUnderItsPattern() throws Exception {
        assertThat(handlerMapping).isInstanceOf(HotPathHandlerMapping.class);
        assertThat(((HotPathHandlerMapping) handlerMapping).hotHandlers())
                .extracting(handler -> handler.getMethod())
                .containsExactly(VoucherController.class.getDeclaredMethod("acceptVoucher", String.class,
                        HttpServletRequest.class, HttpServletResponse.class));
        Timer timed = meters.find("http.server.requests").tag("uri", "/api/channels/{channelId}/vouchers")
                .tag("status", "200").timer();
        long before = timed == null ? 0 : timed.count();

        assertThat(post(Channels.voucherJson(CONSUMER, channelId, 1_000, 1)).status()).isEqualTo(200);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(meters.find("http.server.requests")
                .tag("uri", "/api/channels/{channelId}/vouchers").tag("status", "200").timer())
                .isNotNull().extracting(Timer::count).isEqualTo(before + 1));
    }

    @Test
    void healthIncludesTheDatabase() {
        JsonNode health = Http.get(baseUrl() + "/actuator/health").json();
        assertThat(health.path("status").asText()).isEqualTo("UP");
        assertThat(health.path("components").path("db").path("status").asText()).isEqualTo("UP");
    }
}
