package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.domain.money.Usdc;
import io.chanledger.domain.provider.ModelPrice;
import java.math.BigInteger;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The marketplace's connection test and listing of a provider that sells services besides chat:
 * the test gateway itself (application-test.yml), with its flat and per-unit services.
 */
class ServiceProviderListingTest extends LedgerIntegrationTest {

    @Autowired
    ProviderProbe probe;

    @Test
    void theConnectionTestAcceptsAServicesProviderAndTheListingShowsEachPriceByItsKind() throws Exception {
        String provider = Http.get(baseUrl() + "/v1/pricing").json().path("provider").asText();

        ProviderProbe.ConnectionTest test = probe.connectionTest(URI.create(baseUrl()), provider, Duration.ofSeconds(5));

        // this service's own gateway passes the chat probe: 402 with every payment term, its own address
        assertThat(test.chatProbeFailure()).isNull();
        ProviderProbe.Answer answer = test.answer();

        ModelPrice fetch = answer.models().stream().filter(m -> m.id().equals("page-fetch")).findFirst().orElseThrow();
        assertThat(fetch.name()).isEqualTo("Page fetch");
        assertThat(fetch.inputPer1kTokens()).isEqualTo(Usdc.parseDecimalUsdc("0.02"));
        assertThat(fetch.outputPer1kTokens()).isEqualTo(BigInteger.ZERO);
        List<ProvidersResponse.Model> listed = ProviderResponses.models(answer.models());
        JsonNode rendered = new ObjectMapper().valueToTree(listed);
        assertThat(pricingOf(rendered, "page-fetch").path("perRequest").asText()).isEqualTo("0.02");
        assertThat(pricingOf(rendered, "vpn-lease").has("perRequest"))
                .as("a per-unit service has no one price per request").isFalse();
        assertThat(pricingOf(rendered, "vpn-lease").path("inputPer1kTokens").asText())
                .as("its highest price, for the deployed clients' budget").isEqualTo("0.06");
        assertThat(priceOf(rendered, "vpn-lease").toString()).isEqualTo("{\"kind\":\"per-unit\",\"perUnit\":\"500\","
                + "\"unit\":\"minutes\",\"minUnits\":5,\"maxUnits\":120}");
        assertThat(priceOf(rendered, "page-fetch").toString()).isEqualTo("{\"kind\":\"flat\",\"perRequest\":\"20000\"}");
        assertThat(pricingOf(rendered, "echo-flat").path("perRequest").asText()).isEqualTo("0.01");
        assertThat(pricingOf(rendered, "echo-1").has("perRequest")).isFalse();
        assertThat(pricingOf(rendered, "echo-1").path("inputPer1kTokens").asText()).isEqualTo("0.00375");
    }

    private static JsonNode pricingOf(JsonNode models, String id) {
        return model(models, id).path("pricing");
    }

    private static JsonNode priceOf(JsonNode models, String id) {
        return model(models, id).path("price");
    }

    private static JsonNode model(JsonNode models, String id) {
        for (JsonNode model : models) {
            if (model.path("id").asText().equals(id)) {
                return model;
            }
        }
        throw new AssertionError("no model " + id + " in " + models);
    }
}
