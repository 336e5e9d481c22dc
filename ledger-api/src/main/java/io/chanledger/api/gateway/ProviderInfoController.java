package io.chanledger.api.gateway;

import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** What the gateway sells and how to pay for it: {@code /v1/pricing}, {@code /v1/models}, {@code /v1/docs}. */
@RestController
@ConditionalOnGateway
class ProviderInfoController {

    record ModelPrices(String inputPer1kTokens, String outputPer1kTokens) {
    }

    record Pricing(String provider, String providerName, long chainId, String currency, int decimals,
                   Map<String, ModelPrices> models) {
    }

    record ModelEntry(String id, String object, long created, String owned_by) {
    }

    record ModelList(String object, List<ModelEntry> data) {
    }

    private final PriceList prices;
    private final ProviderIdentity identity;
    private final PaymentTerms terms;
    private final GatewayProperties properties;
    private final AgentDocs docs;

    ProviderInfoController(PriceList prices, ProviderIdentity identity, PaymentTerms terms,
                           GatewayProperties properties, AgentDocs docs) {
        this.prices = prices;
        this.identity = identity;
        this.terms = terms;
        this.properties = properties;
        this.docs = docs;
    }

    @GetMapping(path = "/v1/pricing", produces = MediaType.APPLICATION_JSON_VALUE)
    Pricing pricing() {
        Map<String, ModelPrices> models = new LinkedHashMap<>();
        prices.models().forEach(m -> models.put(m.id(), new ModelPrices(m.inputPer1kText(), m.outputPer1kText())));
        return new Pricing(identity.checksumAddress(), properties.name(), terms.chainId(), "USDC", 6, models);
    }

    @GetMapping(path = "/v1/models", produces = MediaType.APPLICATION_JSON_VALUE)
    ModelList models() {
        return new ModelList("list", prices.models().stream()
                .map(m -> new ModelEntry(m.id(), "model", m.created(), properties.name()))
                .toList());
    }

    @GetMapping(path = "/v1/docs", produces = MediaType.TEXT_PLAIN_VALUE)
    String docs(HttpServletRequest request) {
        return docs.render(terms.baseUrl(request), terms.signingUrl(request));
    }
}
