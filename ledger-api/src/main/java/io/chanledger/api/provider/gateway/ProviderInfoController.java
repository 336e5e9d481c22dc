package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.chanledger.domain.money.Usdc;
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
@ConditionalOnGateway
@CrossOrigin(origins = "*", methods = RequestMethod.GET, allowCredentials = "false", maxAge = 3600)
class ProviderInfoController {

    /**
     * A model's prices as the marketplace reads them, and how it is priced: {@code pricing}
     * {@code tokens}, {@code flat} (with {@code perRequest}, the input price) or {@code per-unit}
     * (with the unit parameter, its price and bounds; the input price is the highest price of a
     * request, which is what clients budget by). {@code payments}: the ways a request may be paid
     * for, {@code chan-v2} (a channel voucher) and, where offered, {@code x402-exact}.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ModelPrices(String inputPer1kTokens, String outputPer1kTokens, String name, String pricing,
                       String perRequest, String unitParameter, String pricePerUnit, Long minUnits, Long maxUnits,
                       List<String> payments) {

        static ModelPrices of(PriceList.ModelRate model, X402Offers offers) {
            PriceList.Units units = model.units();
            String pricing = switch (model.pricing()) {
                case TOKENS -> model.flat() ? "flat" : "tokens";
                case FLAT -> "flat";
                case PER_UNIT -> "per-unit";
            };
            return new ModelPrices(model.inputPer1kText(), model.outputPer1kText(), model.name(), pricing,
                    "flat".equals(pricing) ? model.inputPer1kText() : null, units == null ? null : units.parameter(),
                    units == null ? null : Usdc.formatDecimalUsdc(units.pricePerUnit()),
                    units == null ? null : units.min(), units == null ? null : units.max(), offers.ways(model));
        }
    }

    record Pricing(String provider, String providerName, long chainId, String currency, int decimals,
                   Map<String, ModelPrices> models) {
    }

    /** A model as OpenAI lists it, with {@code payments} as in {@link ModelPrices}. */
    record ModelEntry(String id, String object, long created, String owned_by, List<String> payments) {
    }

    record ModelList(String object, List<ModelEntry> data) {
    }

    private final PriceList prices;
    private final ProviderIdentity identity;
    private final PaymentTerms terms;
    private final GatewayProperties properties;
    private final AgentDocs docs;
    private final X402Offers offers;

    ProviderInfoController(PriceList prices, ProviderIdentity identity, PaymentTerms terms,
                           GatewayProperties properties, AgentDocs docs, X402Offers offers) {
        this.offers = offers;
        this.prices = prices;
        this.identity = identity;
        this.terms = terms;
        this.properties = properties;
        this.docs = docs;
    }

    @GetMapping(path = "/v1/pricing", produces = MediaType.APPLICATION_JSON_VALUE)
    Pricing pricing() {
        Map<String, ModelPrices> models = new LinkedHashMap<>();
        prices.models().forEach(m -> models.put(m.id(), ModelPrices.of(m, offers)));
        return new Pricing(identity.checksumAddress(), properties.name(), terms.chainId(), "USDC", 6, models);
    }

    @GetMapping(path = "/v1/models", produces = MediaType.APPLICATION_JSON_VALUE)
    ModelList models() {
        return new ModelList("list", prices.models().stream()
                .map(m -> new ModelEntry(m.id(), "model", m.created(), properties.name(), offers.ways(m)))
                .toList());
    }

    @GetMapping(path = "/v1/docs", produces = MediaType.TEXT_PLAIN_VALUE)
    String docs(HttpServletRequest request) {
        return docs.render(terms.baseUrl(request), terms.signingUrl(request));
    }
}
