package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.domain.money.Usdc;
import io.chanledger.domain.provider.Price;
import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.CrossOrigin;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;

/**
 * What the gateway sells and how to pay for it: {@code /v1/pricing}, {@code /v1/models}, {@code /v1/docs}.
 * They are public documents, readable from any origin ({@code Access-Control-Allow-Origin: *}, GET
 * only, never with credentials): the marketplace's provider page, on the marketplace's origin, shows
 * them. The paid and wallet-signed endpoints have no such permission, so no other site's page can
 * read their answers.
 */
@RestController
@CrossOrigin(origins = "*", methods = RequestMethod.GET, allowCredentials = "false", maxAge = 3600)
class ProviderInfoController {

    /**
     * A model in {@code /v1/pricing}: {@code inputPer1kTokens} and {@code outputPer1kTokens} (decimal
     * USDC), the two numbers agent clients deployed before the price kind existed budget by (for a
     * model not priced per token, its highest price of a request and 0); {@code price}, the whole
     * price in base units ({@link Price}); {@code example}, a request body the gateway accepts for
     * it, which pages show as the model's payment example; and {@code payments}, the ways a request
     * may be paid for, {@code chan-v2} (a channel voucher) and, where offered, {@code x402-exact}.
     */
    record PublishedModel(String inputPer1kTokens, String outputPer1kTokens, String name, Price price,
                          ObjectNode example, List<String> payments) {
    }

    /** The {@code /v1/pricing} document: who is paid, on which chain, and each model's price. */
    record PublishedPrices(String provider, String providerName, long chainId, String currency, int decimals,
                           Map<String, PublishedModel> models) {
    }

    /** An entry of {@code /v1/models}: OpenAI's model object, with the model's whole price and {@code payments}. */
    record ModelEntry(String id, String object, long created, String owned_by, Price price, List<String> payments) {
    }

    record ModelList(String object, List<ModelEntry> data) {
    }

    private final PriceList prices;
    private final ProviderIdentity identity;
    private final PaymentTerms terms;
    private final GatewayProperties properties;
    private final ProviderDocs docs;
    private final ObjectMapper json;
    private final X402Offers offers;

    ProviderInfoController(PriceList prices, ProviderIdentity identity, PaymentTerms terms,
                           GatewayProperties properties, ProviderDocs docs, ObjectMapper json, X402Offers offers) {
        this.offers = offers;
        this.prices = prices;
        this.identity = identity;
        this.terms = terms;
        this.properties = properties;
        this.docs = docs;
        this.json = json;
    }

    @GetMapping(path = "/v1/pricing", produces = MediaType.APPLICATION_JSON_VALUE)
    PublishedPrices pricing() {
        Map<String, PublishedModel> models = new LinkedHashMap<>();
        prices.models().forEach(m -> models.put(m.id(), new PublishedModel(m.inputPer1kText(), m.outputPer1kText(),
                m.name(), m.modelPrice().price(), m.exampleRequest(json), offers.ways(m))));
        return new PublishedPrices(identity.checksumAddress(), properties.name(), terms.chainId(), "USDC",
                Usdc.DECIMALS, models);
    }

    @GetMapping(path = "/v1/models", produces = MediaType.APPLICATION_JSON_VALUE)
    ModelList models() {
        return new ModelList("list", prices.models().stream()
                .map(m -> new ModelEntry(m.id(), "model", m.created(), properties.name(), m.modelPrice().price(), offers.ways(m)))
                .toList());
    }

    @GetMapping(path = "/v1/docs", produces = MediaType.TEXT_PLAIN_VALUE)
    String docs(HttpServletRequest request) {
        return docs.render(terms.baseUrl(request), terms.signingUrl(request));
    }
}
