package io.chanledger.api.provider.x402;

import static io.chanledger.api.provider.x402.X402Fixtures.PRICE;
import static io.chanledger.api.provider.x402.X402Fixtures.authorization;
import static io.chanledger.api.provider.x402.X402Fixtures.payer;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.api.provider.gateway.ProviderIdentity;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.chain.devnet.Authorization;
import io.chanledger.chain.devnet.Devnet;
import io.chanledger.chain.devnet.DevnetAccounts;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.web3j.crypto.Credentials;
import org.web3j.utils.Numeric;

/**
 * The provider's facilitator through HTTP, as a stock x402 resource server calls it: it supports
 * {@code exact} on Polygon with the provider's wallet as signer, verifies without writing anything,
 * settles a payment to the provider once (copies at once included), and answers every bad request
 * with the spec's reason, never a 5xx.
 */
class X402FacilitatorEndpointTest extends LedgerIntegrationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Autowired
    ProviderIdentity identity;

    private Devnet devnet;
    private String payTo;
    private Credentials payer;

    @BeforeEach
    void aPayerOfItsOwn() {
        devnet = devnet();
        payTo = identity.address();
        payer = payer(devnet, BigInteger.valueOf(1_000_000));
        devnet.setBalance(payTo, Devnet.GAS_MONEY); // the provider pays the settlements' gas
    }

    @Test
    void itSupportsExactOnPolygonSignedByTheProvidersWallet() throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(url("/supported")).GET().build(),
                HttpResponse.BodyHandlers.ofString());

        JsonNode supported = JSON.readTree(response.body());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(supported.path("kinds").toString()).contains("\"x402Version\":2,\"scheme\":\"exact\",\"network\":\"eip155:137\"")
                .contains("\"x402Version\":1,\"scheme\":\"exact\",\"network\":\"polygon\"");
        assertThat(supported.path("signers").path("eip155:*").get(0).asText()).isEqualTo(payTo);
    }

    @Test
    void aPaymentIsVerifiedThenSettledOnceAndItsCopyIsRefused() throws Exception {
        String body = request(signed(authorization(devnet, payer, payTo, PRICE), payer), offer(PRICE, payTo)).toString();
        BigInteger before = devnet.balanceOf(payTo);

        JsonNode verified = post("/verify", body, 200);
        assertThat(verified.path("isValid").asBoolean()).isTrue();
        assertThat(verified.path("payer").asText()).isEqualTo(payer.getAddress().toLowerCase());
        assertThat(devnet.balanceOf(payTo)).as("verification moves nothing").isEqualTo(before);

        JsonNode settled = post("/settle", body, 200);
        assertThat(settled.path("success").asBoolean()).as(settled.toString()).isTrue();
        assertThat(settled.path("transaction").asText()).startsWith("0x").hasSize(66);
        assertThat(settled.path("network").asText()).isEqualTo("eip155:137");
        assertThat(settled.path("amount").asText()).isEqualTo(PRICE.toString());
        assertThat(devnet.balanceOf(payTo)).isEqualTo(before.add(PRICE));

        JsonNode again = post("/settle", body, 200);
        assertThat(again.path("success").asBoolean()).isFalse();
        assertThat(again.path("errorReason").asText()).isEqualTo("invalid_transaction_state");
        assertThat(post("/verify", body, 200).path("invalidReason").asText()).isEqualTo("invalid_transaction_state");
        assertThat(devnet.balanceOf(payTo)).isEqualTo(before.add(PRICE));
    }

    @Test
    void fiveCopiesSentAtOnceSettleOnce() throws Exception {
        String body = request(signed(authorization(devnet, payer, payTo, PRICE), payer), offer(PRICE, payTo)).toString();
        BigInteger before = devnet.balanceOf(payTo);
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<JsonNode>> copies = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            copies.add(CompletableFuture.supplyAsync(() -> {
                try {
                    start.await();
                    return post("/settle", body, 200);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        start.countDown();

        List<JsonNode> answers = copies.stream().map(CompletableFuture::join).toList();

        assertThat(answers).filteredOn(a -> a.path("success").asBoolean()).hasSize(1);
        assertThat(answers).filteredOn(a -> !a.path("success").asBoolean())
                .allSatisfy(a -> assertThat(a.path("errorReason").asText()).isEqualTo("invalid_transaction_state"));
        assertThat(devnet.balanceOf(payTo)).isEqualTo(before.add(PRICE));
    }

    @Test
    void badRequestsGetTheSpecsReasonsAndMoveNothing() throws Exception {
        BigInteger before = devnet.balanceOf(payTo);
        String someoneElse = DevnetAccounts.STRANGER_1.getAddress().toLowerCase();
        Authorization good = authorization(devnet, payer, payTo, PRICE);

        assertThat(post("/verify", "not json", 400).path("invalidReason").asText()).isEqualTo("invalid_payload");
        assertThat(post("/settle", "[]", 400).path("errorReason").asText()).isEqualTo("invalid_payload");
        ObjectNode wrongVersion = request(signed(good, payer), offer(PRICE, payTo)).put("x402Version", 3);
        assertThat(post("/verify", wrongVersion.toString(), 200).path("invalidReason").asText())
                .isEqualTo("invalid_x402_version");
        Authorization toSomeoneElse = authorization(devnet, payer, someoneElse, PRICE);
        assertThat(post("/settle", request(signed(toSomeoneElse, payer), offer(PRICE, someoneElse)).toString(), 200)
                .path("errorReason").asText()).isEqualTo("invalid_payment_requirements");
        Authorization dust = authorization(devnet, payer, payTo, BigInteger.ONE);
        assertThat(post("/settle", request(signed(dust, payer), offer(BigInteger.ONE, payTo)).toString(), 200)
                .path("errorReason").asText()).isEqualTo("invalid_payment_requirements");
        Credentials stranger = payer(devnet, BigInteger.ZERO);
        JsonNode forged = post("/settle", request(signed(good, stranger), offer(PRICE, payTo)).toString(), 200);
        assertThat(forged.path("errorReason").asText()).isEqualTo("invalid_exact_evm_payload_signature");
        assertThat(forged.path("transaction").asText("missing")).isEmpty();

        assertThat(devnet.balanceOf(payTo)).isEqualTo(before);
    }

    private JsonNode post(String path, String body, int expectedStatus) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(url(path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(expectedStatus);
        return JSON.readTree(response.body());
    }

    private URI url(String path) {
        return URI.create(baseUrl() + X402FacilitatorController.PREFIX + path);
    }

    private ObjectNode offer(BigInteger amount, String to) {
        ObjectNode offer = JSON.createObjectNode().put("scheme", "exact").put("network", "eip155:137")
                .put("amount", amount.toString()).put("asset", Devnet.POLYGON_USDC).put("payTo", to)
                .put("maxTimeoutSeconds", 60);
        offer.putObject("extra").put("name", "USD Coin").put("version", "2");
        return offer;
    }

    private ObjectNode signed(Authorization authorization, Credentials signer) {
        ObjectNode payload = JSON.createObjectNode().put("signature",
                Numeric.toHexString(devnet.usdcAuthorizations().signTransfer(signer, authorization)));
        payload.putObject("authorization").put("from", authorization.from()).put("to", authorization.to())
                .put("value", authorization.value().toString()).put("validAfter", authorization.validAfter().toString())
                .put("validBefore", authorization.validBefore().toString()).put("nonce", authorization.nonce());
        return payload;
    }

    private static ObjectNode request(ObjectNode exactPayload, ObjectNode offer) {
        ObjectNode payment = JSON.createObjectNode().put("x402Version", 2);
        payment.putObject("resource").put("url", "http://127.0.0.1/paid");
        payment.set("accepted", offer);
        payment.set("payload", exactPayload);
        ObjectNode request = JSON.createObjectNode().put("x402Version", 2);
        request.set("paymentPayload", payment);
        request.set("paymentRequirements", offer.deepCopy());
        return request;
    }
}
