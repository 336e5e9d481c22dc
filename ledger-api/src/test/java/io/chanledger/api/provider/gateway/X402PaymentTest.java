package io.chanledger.api.provider.gateway;

import io.chanledger.api.provider.ProviderIdentity;
import static io.chanledger.api.provider.gateway.GatewayReplies.header;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.api.provider.x402.PaymentKey;
import io.chanledger.api.provider.x402.X402Settlement;
import io.chanledger.api.support.AdminReads;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.testsupport.Authorization;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.DevnetAccounts;
import io.chanledger.testsupport.UsdcAuthorizations;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.web3j.crypto.Credentials;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/**
 * Paying the gateway with x402 through HTTP, on the devnet's USDC and the test database: a payment
 * is verified before the upstream is called and settled by the provider's wallet once the answer
 * is ready, before it is delivered; the same payment again, or five copies at once, settle once;
 * a failed upstream settles nothing and leaves the authorization unused; a settlement that fails
 * withholds the answer; bad payments are 402s naming the spec's reason and move nothing.
 */
class X402PaymentTest extends LedgerIntegrationTest {

    private static final BigInteger FLAT_PRICE = BigInteger.valueOf(10_000);
    private static final BigInteger FETCH_PRICE = BigInteger.valueOf(20_000);
    private static final BigInteger FUNDS = BigInteger.valueOf(1_000_000);

    @Autowired
    ProviderIdentity identity;
    @Autowired
    X402Settlement settlement;

    /** The provider's wallet sends the settlements and pays their gas. */
    @BeforeEach
    void providerHasGas() {
        devnet().setBalance(identity.address(), Devnet.GAS_MONEY);
    }

    @Test
    void aFlatModelPaidWithV2IsSettledOnceBeforeItsAnswerAndTheSamePaymentGetsTheKeptAnswer() {
        X402Agent agent = X402Agent.create(devnet(), baseUrl(), FUNDS);
        String body = Agent.chatBody("echo-flat", "hello " + UUID.randomUUID(), null, false);
        JsonNode before = dashboardModel("echo-flat");

        X402Agent.Paid paid = agent.payV2(body);

        assertThat(paid.reply().status()).as(paid.reply().body()).isEqualTo(200);
        assertThat(paid.reply().json().path("choices").path(0).path("message").path("content").isTextual()).isTrue();
        JsonNode response = X402Agent.decode(header(paid.reply(), "PAYMENT-RESPONSE"));
        assertThat(response.path("success").asBoolean()).isTrue();
        assertThat(response.path("network").asText()).isEqualTo("eip155:137");
        assertThat(response.path("payer").asText()).isEqualToIgnoringCase(agent.address());
        assertThat(response.path("amount").asText()).isEqualTo("10000");
        assertOneTransfer(response.path("transaction").asText(), agent.address(), FLAT_PRICE);
        assertThat(agent.balance()).isEqualTo(FUNDS.subtract(FLAT_PRICE));
        X402Settlement.PaymentRecord record = record(paid.authorization());
        assertThat(record.status()).isEqualTo(X402Settlement.PaymentStatus.SETTLED);
        assertThat(record.model()).isEqualTo("echo-flat");
        // the dashboard shows it as the model's x402 revenue, beside what channels paid for it, once
        // the ledger's read model has taken the payment's event
        BigInteger expected = new BigInteger(before.path("x402Settled").asText("0")).add(FLAT_PRICE);
        org.awaitility.Awaitility.await("the dashboard to show the payment").atMost(java.time.Duration.ofSeconds(30))
                .until(() -> new BigInteger(dashboardModel("echo-flat").path("x402Settled").asText("0")).equals(expected));
        JsonNode after = dashboardModel("echo-flat");
        assertThat(new BigInteger(after.path("x402Settled").asText())).isEqualTo(expected);
        assertThat(after.path("x402Payments").asLong()).isEqualTo(before.path("x402Payments").asLong(0) + 1);
        assertThat(after.path("charged").asText()).isEqualTo(before.path("charged").asText("0"));

        Http.Reply again = agent.send(body, X402Agent.V2, paid.header());

        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.body()).isEqualTo(paid.reply().body());
        assertThat(header(again, "X-CHAN-Replay")).isEqualTo("true");
        assertThat(X402Agent.decode(header(again, "PAYMENT-RESPONSE")).path("transaction").asText())
                .isEqualTo(response.path("transaction").asText());
        assertThat(agent.balance()).isEqualTo(FUNDS.subtract(FLAT_PRICE));
    }

    @Test
    void aServicePaidWithV1IsSettledForItsPriceWithXPaymentResponse() {
        X402Agent agent = X402Agent.create(devnet(), baseUrl(), FUNDS);
        String body = Agent.serviceBody("page-fetch", "{\"url\":\"https://example.com/" + UUID.randomUUID() + "\"}");
        Http.Reply unpaid = Http.postJson(baseUrl() + "/v1/chat/completions", body);
        JsonNode v1Offer = unpaid.json().path("accepts").path(0);
        assertThat(v1Offer.path("maxAmountRequired").asText()).isEqualTo("20000");
        Authorization authorization = Authorization.of(agent.address(), v1Offer.path("payTo").asText(), FETCH_PRICE,
                0, System.currentTimeMillis() / 1000 + 3600);

        Http.Reply paid = agent.send(body, X402Agent.V1,
                X402Agent.encode(agent.v1Json(authorization, agent.sign(authorization))));

        assertThat(paid.status()).as(paid.body()).isEqualTo(200);
        assertThat(paid.json().path("model").asText()).isEqualTo("page-fetch");
        assertThat(header(paid, "PAYMENT-RESPONSE")).isNull();
        JsonNode response = X402Agent.decode(header(paid, "X-PAYMENT-RESPONSE"));
        assertThat(response.path("success").asBoolean()).isTrue();
        assertThat(response.path("network").asText()).isEqualTo("polygon");
        assertOneTransfer(response.path("transaction").asText(), agent.address(), FETCH_PRICE);
        assertThat(agent.balance()).isEqualTo(FUNDS.subtract(FETCH_PRICE));
    }

    @Test
    void fiveCopiesOfOnePaymentAtOnceAreSettledOnceAndGetOneAnswer() throws Exception {
        X402Agent agent = X402Agent.create(devnet(), baseUrl(), FUNDS);
        String body = Agent.serviceBody("page-fetch", "{\"url\":\"https://example.com/" + UUID.randomUUID()
                + "/late\"}");
        JsonNode offer = agent.offerFor(body);
        Authorization authorization = agent.authorize(offer);
        String header = X402Agent.encode(agent.v2Json(offer, authorization, agent.sign(authorization)));

        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<Http.Reply>> copies = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            copies.add(CompletableFuture.supplyAsync(() -> {
                await(start);
                return agent.send(body, X402Agent.V2, header);
            }));
        }
        start.countDown();
        List<Http.Reply> replies = copies.stream().map(CompletableFuture::join).toList();

        List<String> answers = new ArrayList<>();
        for (Http.Reply reply : replies) {
            assertThat(reply.status()).as(reply.body()).isIn(200, 409);
            if (reply.status() == 200) {
                answers.add(reply.body());
            } else {
                assertThat(header(reply, "X-CHAN-Error")).isEqualTo("request_running");
            }
        }
        assertThat(answers).isNotEmpty();
        assertThat(agent.balance()).isEqualTo(FUNDS.subtract(FETCH_PRICE));
        Http.Reply after = agent.send(body, X402Agent.V2, header);
        assertThat(after.status()).as(after.body()).isEqualTo(200);
        answers.add(after.body());
        assertThat(answers).containsOnly(answers.get(0));
        assertThat(agent.balance()).isEqualTo(FUNDS.subtract(FETCH_PRICE));
    }

    @Test
    void aFailedOrTimedOutUpstreamSettlesNothingAndLeavesTheAuthorizationToPayAgain() {
        X402Agent agent = X402Agent.create(devnet(), baseUrl(), FUNDS);
        String failing = Agent.serviceBody("page-fetch", "{\"url\":\"https://example.com/status/500\"}");
        JsonNode offer = agent.offerFor(failing);
        Authorization authorization = agent.authorize(offer);
        String header = X402Agent.encode(agent.v2Json(offer, authorization, agent.sign(authorization)));

        Http.Reply failed = agent.send(failing, X402Agent.V2, header);
        Http.Reply timedOut = agent.send(Agent.serviceBody("page-fetch", "{\"url\":\"https://example.com/slow\"}"),
                X402Agent.V2, header);

        assertThat(failed.status()).as(failed.body()).isEqualTo(502);
        assertThat(header(failed, "X-CHAN-Error")).isEqualTo("upstream_error");
        assertThat(failed.json().path("error").path("message").asText()).contains("nothing was charged");
        assertThat(timedOut.status()).as(timedOut.body()).isEqualTo(504);
        assertThat(header(timedOut, "X-CHAN-Error")).isEqualTo("upstream_timeout");
        assertThat(header(failed, "PAYMENT-RESPONSE")).isNull();
        assertThat(agent.balance()).isEqualTo(FUNDS);
        assertThat(devnet().usdcAuthorizations().authorizationState(agent.address(), authorization.nonce())).isFalse();
        assertThat(record(authorization).status()).isEqualTo(X402Settlement.PaymentStatus.RELEASED);

        // the authorization was left unused: it pays for the next request of the same price
        Http.Reply served = agent.send(Agent.serviceBody("page-fetch", "{\"url\":\"https://example.com/"
                + UUID.randomUUID() + "\"}"), X402Agent.V2, header);
        assertThat(served.status()).as(served.body()).isEqualTo(200);
        assertThat(agent.balance()).isEqualTo(FUNDS.subtract(FETCH_PRICE));
    }

    @Test
    void aSettlementThatFailsWithholdsTheAnswerAndChargesNothing() throws Exception {
        X402Agent agent = X402Agent.create(devnet(), baseUrl(), FETCH_PRICE);
        String body = Agent.serviceBody("page-fetch", "{\"url\":\"https://example.com/" + UUID.randomUUID()
                + "/late\"}");
        JsonNode offer = agent.offerFor(body);
        Authorization authorization = agent.authorize(offer);
        String header = X402Agent.encode(agent.v2Json(offer, authorization, agent.sign(authorization)));

        CompletableFuture<Http.Reply> request = CompletableFuture.supplyAsync(() -> agent.send(body, X402Agent.V2,
                header));
        // while the upstream takes its 600 ms, the payer's balance goes elsewhere
        Thread.sleep(250);
        Credentials relayer = DevnetAccounts.labelled("x402-relayer-" + UUID.randomUUID());
        devnet().setBalance(relayer.getAddress(), Devnet.GAS_MONEY);
        Authorization away = agent.authorize(offer).withNonce(Authorization.randomNonce());
        away = new Authorization(away.from(), relayer.getAddress(), FETCH_PRICE, away.validAfter(), away.validBefore(),
                away.nonce());
        devnet().usdcAuthorizations().transferWithAuthorization(relayer, away, devnet().usdcAuthorizations()
                .signTransfer(agent.wallet, away), UsdcAuthorizations.SignatureForm.BYTES);
        Http.Reply reply = request.join();

        assertThat(reply.status()).as(reply.body()).isEqualTo(402);
        assertThat(reply.body()).doesNotContain("Example page").doesNotContain("choices");
        JsonNode response = X402Agent.decode(header(reply, "PAYMENT-RESPONSE"));
        assertThat(response.path("success").asBoolean()).isFalse();
        assertThat(response.path("errorReason").asText()).isEqualTo(header(reply, "X-CHAN-Error"));
        assertThat(devnet().usdcAuthorizations().authorizationState(agent.address(), authorization.nonce())).isFalse();
        assertThat(devnet().balanceOf(relayer.getAddress())).isEqualTo(FETCH_PRICE);

        Http.Reply again = agent.send(body, X402Agent.V2, header);
        assertThat(again.status()).as(again.body()).isEqualTo(402);
        assertThat(again.body()).doesNotContain("Example page");
    }

    @Test
    void badPaymentsAre402sNamingTheirReasonAndMoveNothing() {
        X402Agent agent = X402Agent.create(devnet(), baseUrl(), FUNDS);
        String body = Agent.chatBody("echo-flat", "hello", null, false);
        JsonNode offer = agent.offerFor(body);
        Credentials stranger = DevnetAccounts.labelled("x402-stranger-" + UUID.randomUUID());
        long now = Math.max(System.currentTimeMillis() / 1000, devnet().latestBlockTimestamp().longValueExact());

        Map<String, String> cases = new LinkedHashMap<>();
        Authorization good = agent.authorize(offer);
        cases.put("not base64", "%%%not-base64%%%");
        cases.put("not JSON", java.util.Base64.getEncoder().encodeToString("{\"x402Version\":".getBytes()));
        ObjectNode version = agent.v2Json(offer, good, agent.sign(good));
        version.put("x402Version", 3);
        cases.put("version", X402Agent.encode(version));
        ObjectNode scheme = agent.v2Json(offer, good, agent.sign(good));
        ((ObjectNode) scheme.path("accepted")).put("scheme", "upto");
        cases.put("scheme", X402Agent.encode(scheme));
        ObjectNode network = agent.v2Json(offer, good, agent.sign(good));
        ((ObjectNode) network.path("accepted")).put("network", "eip155:1");
        cases.put("network", X402Agent.encode(network));
        ObjectNode asset = agent.v2Json(offer, good, agent.sign(good));
        ((ObjectNode) asset.path("accepted")).put("asset", stranger.getAddress());
        cases.put("asset", X402Agent.encode(asset));
        Authorization elsewhere = new Authorization(good.from(), stranger.getAddress(), good.value(), good.validAfter(),
                good.validBefore(), Authorization.randomNonce());
        cases.put("payTo", X402Agent.encode(agent.v2Json(offer, elsewhere, agent.sign(elsewhere))));
        Authorization less = good.withValue(FLAT_PRICE.subtract(BigInteger.ONE)).withNonce(Authorization.randomNonce());
        cases.put("amount", X402Agent.encode(agent.v2Json(offer, less, agent.sign(less))));
        Authorization expired = new Authorization(good.from(), good.to(), good.value(), BigInteger.ZERO,
                BigInteger.valueOf(now - 10), Authorization.randomNonce());
        cases.put("expired", X402Agent.encode(agent.v2Json(offer, expired, agent.sign(expired))));
        Authorization early = new Authorization(good.from(), good.to(), good.value(), BigInteger.valueOf(now + 600),
                BigInteger.valueOf(now + 3600), Authorization.randomNonce());
        cases.put("not yet valid", X402Agent.encode(agent.v2Json(offer, early, agent.sign(early))));
        Authorization forged = good.withNonce(Authorization.randomNonce());
        cases.put("signer", X402Agent.encode(agent.v2Json(offer, forged, agent.sign(stranger, forged))));
        Authorization used = good.withNonce(Authorization.randomNonce());
        Credentials relayer = DevnetAccounts.labelled("x402-relayer-" + UUID.randomUUID());
        devnet().setBalance(relayer.getAddress(), Devnet.GAS_MONEY);
        devnet().usdcAuthorizations().transferWithAuthorization(relayer, used, devnet().usdcAuthorizations()
                .signTransfer(agent.wallet, used), UsdcAuthorizations.SignatureForm.BYTES);
        BigInteger funds = agent.balance();
        Authorization reused = used.withValue(good.value());
        cases.put("nonce", X402Agent.encode(agent.v2Json(offer, reused, agent.sign(reused))));
        cases.put("oversized", "A".repeat(20_000));

        Map<String, String> expected = Map.ofEntries(Map.entry("version", "invalid_x402_version"),
                Map.entry("scheme", "unsupported_scheme"), Map.entry("network", "invalid_network"),
                Map.entry("asset", "invalid_payment_requirements"),
                Map.entry("payTo", "invalid_exact_evm_payload_recipient_mismatch"),
                Map.entry("amount", "invalid_exact_evm_payload_authorization_value_mismatch"),
                Map.entry("expired", "invalid_exact_evm_payload_authorization_valid_before"),
                Map.entry("not yet valid", "invalid_exact_evm_payload_authorization_valid_after"),
                Map.entry("signer", "invalid_exact_evm_payload_signature"),
                Map.entry("nonce", "invalid_transaction_state"));
        for (Map.Entry<String, String> bad : cases.entrySet()) {
            Http.Reply reply = agent.send(body, X402Agent.V2, bad.getValue());
            assertThat(reply.status()).as("%s: %s", bad.getKey(), reply.body()).isEqualTo(402);
            String code = header(reply, "X-CHAN-Error");
            assertThat(reply.json().path("error").path("code").asText()).as(bad.getKey()).isEqualTo(code);
            assertThat(code).as(bad.getKey()).isNotEqualTo("voucher_required")
                    .matches("[a-z0-9_]+").isEqualTo(expected.getOrDefault(bad.getKey(), code));
            assertThat(reply.body()).as(bad.getKey()).doesNotContain("choices");
        }
        assertThat(agent.balance()).isEqualTo(funds);
    }

    /** The model's row of the provider's dashboard (read with the admin token); missing before its first revenue. */
    private JsonNode dashboardModel(String model) {
        Http.Reply dashboard = AdminReads.get(baseUrl() + "/api/provider/dashboard");
        assertThat(dashboard.status()).as(dashboard.body()).isEqualTo(200);
        for (JsonNode row : dashboard.json().path("models")) {
            if (row.path("model").asText().equals(model)) {
                return row;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    private X402Settlement.PaymentRecord record(Authorization authorization) {
        return settlement.lookup(new PaymentKey(authorization.from().toLowerCase(Locale.ROOT),
                authorization.nonce().toLowerCase(Locale.ROOT))).orElseThrow();
    }

    /** The transaction's receipt shows exactly one Transfer of the token: {@code amount} from the payer to the provider. */
    private void assertOneTransfer(String transaction, String payer, BigInteger amount) {
        TransactionReceipt receipt;
        try {
            receipt = devnet().web3j().ethGetTransactionReceipt(transaction).send().getTransactionReceipt()
                    .orElseThrow();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        List<Log> transfers = devnet().usdcAuthorizations().logs(receipt, "Transfer");
        assertThat(transfers).hasSize(1);
        assertThat(Devnet.topicAddress(transfers.get(0), 1)).isEqualToIgnoringCase(payer);
        assertThat(Devnet.topicAddress(transfers.get(0), 2)).isEqualToIgnoringCase(identity.address());
        assertThat(Devnet.amountOf(transfers.get(0))).isEqualTo(amount);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
