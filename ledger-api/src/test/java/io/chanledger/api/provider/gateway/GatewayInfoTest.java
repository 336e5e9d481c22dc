package io.chanledger.api.provider.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.domain.eip712.Hex;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** What the gateway publishes about itself: pricing, models and the agents' instructions. */
class GatewayInfoTest extends LedgerIntegrationTest {

    @Autowired
    ProviderIdentity identity;

    @Test
    void pricingNamesTheProviderAndEveryModelsPricesAsDecimalStrings() {
        Http.Reply reply = Http.get(baseUrl() + "/v1/pricing");

        assertThat(reply.status()).isEqualTo(200);
        JsonNode pricing = reply.json();
        assertThat(pricing.path("provider").asText()).isEqualTo(identity.checksumAddress());
        assertThat(Hex.isValidChecksum(pricing.path("provider").asText())).isTrue();
        assertThat(pricing.path("providerName").asText()).isEqualTo("Test gateway");
        assertThat(pricing.path("chainId").asLong()).isEqualTo(137);
        assertThat(pricing.path("currency").asText()).isEqualTo("USDC");
        assertThat(pricing.path("decimals").asInt()).isEqualTo(6);
        assertThat(pricing.path("models").path("echo-1").path("inputPer1kTokens").textValue()).isEqualTo("0.00375");
        assertThat(pricing.path("models").path("echo-1").path("outputPer1kTokens").textValue()).isEqualTo("0.015");
        assertThat(pricing.path("models").path("echo-flat").path("outputPer1kTokens").textValue()).isEqualTo("0");
    }

    @Test
    void modelsAreListedTheOpenAiWay() {
        JsonNode models = Http.get(baseUrl() + "/v1/models").json();

        assertThat(models.path("object").asText()).isEqualTo("list");
        assertThat(models.path("data")).hasSize(4);
        JsonNode first = models.path("data").path(0);
        assertThat(first.path("id").asText()).isEqualTo("echo-1");
        assertThat(first.path("object").asText()).isEqualTo("model");
        assertThat(first.path("created").isIntegralNumber()).isTrue();
        assertThat(first.path("owned_by").asText()).isEqualTo("Test gateway");
    }

    @Test
    void theDocsTellAnAgentHowToPayAndCall() {
        Http.Reply reply = Http.get(baseUrl() + "/v1/docs");

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.contentType()).startsWith("text/plain");
        assertThat(reply.body().length()).isGreaterThanOrEqualTo(100);
        assertThat(reply.body()).contains(identity.checksumAddress(), "X-CHAN-Voucher", "/v1/chat/completions",
                "/v1/close-channel", "cooperativeClose", "echo-1: 0.00375 / 0.015", "chan-v2",
                baseUrl() + "/api/chan/signing");
    }

    @Test
    void theUnpaidEchoEndpointAnswersLikeAnOpenAiApi() {
        Http.Reply reply = Http.postJson(baseUrl() + "/echo/v1/chat/completions",
                Agent.chatBody("echo-1", "ping", null, false));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().path("choices").path(0).path("message").path("content").asText()).isEqualTo("Echo: ping");
        assertThat(reply.json().path("usage").path("completion_tokens").asLong()).isEqualTo(3);
    }
}
