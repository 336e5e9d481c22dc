package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.api.config.ProtocolProperties;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.domain.money.Usdc;
import io.chanledger.domain.provider.PriceKind;
import io.chanledger.domain.provider.UnitPrice;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/** The plain-text instructions of {@code /v1/docs}, written from the gateway's configuration. */
@Component
class ProviderDocs {

    private final PriceList prices;
    private final ProviderIdentity identity;
    private final PaymentTerms terms;
    private final GatewayProperties properties;
    private final ObjectMapper json;
    private final X402Offers offers;

    ProviderDocs(PriceList prices, ProviderIdentity identity, PaymentTerms terms, GatewayProperties properties,
                 ObjectMapper json, X402Offers offers) {
        this.offers = offers;
        this.prices = prices;
        this.identity = identity;
        this.terms = terms;
        this.properties = properties;
        this.json = json;
    }

    String render(String baseUrl, String signingUrl) {
        StringBuilder text = new StringBuilder();
        text.append(properties.name()).append(" - pay-per-request API (protocol ").append(ProtocolProperties.NAME)
                .append(")\n\n");
        if (!properties.description().isBlank()) {
            text.append(properties.description()).append("\n\n");
        }
        text.append("""
                Requests are paid in USDC through a payment channel on chain %d. No API key is needed.

                1. Approve the channel contract %s to spend your USDC%s (6 decimals; all
                   amounts here are in base units, 1 USDC = 1000000).
                2. Open a channel: call open(provider, amount, duration) on the contract, with provider
                   %s. The deposit is what this API may charge at most.
                3. Call POST %s/v1/chat/completions (OpenAI chat format) with the header
                   X-CHAN-Voucher: {"channelId":"0x...","amount":"<cumulative base units>","nonce":"<n>","signature":"0x..."}
                   The signature is EIP-712 over Voucher(bytes32 channelId,uint256 amount,uint256 nonce) in the
                   domain ChanChannel / 1 / chain %d / the contract; the signing details are at %s.
                   Start at nonce 1 and add 1 per request. amount is the running total you authorise. Before
                   the request goes upstream it must cover what the channel was charged so far plus this
                   request's hold: (input tokens x input price + %d x output price) / 1000 base units (fewer
                   output tokens if you set a smaller max_tokens), or the price of one request for a model
                   whose output price is 0. Afterwards the request is charged its actual cost; if that is
                   more than the voucher leaves, the answer is still delivered and only what the voucher
                   leaves is charged (X-CHAN-Required then says the cost); a stream stops where the voucher
                   leaves no room (insufficient_funds_post). So budget each voucher as your previous amount
                   plus an estimate with a buffer, e.g. (characters/4 x input price + (max_tokens or 500) x
                   output price) / 1000 x 1.2. Your request is sent upstream exactly as you sent it (no
                   max_tokens is added). Every voucher pays for one request only: if you lost its answer
                   (timed out, connection dropped), send the very same voucher again within %s to get that
                   answer again at no charge (X-CHAN-Replay: true; 409 request_running while it still runs).
                4. Answers carry X-CHAN-Cost (this request), X-CHAN-Total (charged so far) and X-CHAN-Remaining
                   (deposit left). With "stream": true the same figures follow data: [DONE] as SSE comments.
                   A refused voucher is HTTP 402 with X-CHAN-Error; insufficient_funds also says
                   X-CHAN-Required (this request's hold) and X-CHAN-Provided (your amount less what was
                   charged so far).
                5. When done, POST %s/v1/close-channel {"channelId":"0x..."} returns {finalAmount, signature};
                   call cooperativeClose(channelId, finalAmount, signature) on the contract to get the rest of
                   the deposit back at once.

                Token counting: OpenAI's encodings (o200k_base for gpt-4o, gpt-4.1, gpt-5 and o-series models,
                cl100k_base for gpt-4, gpt-3.5 and every other model); a whole answer is billed on the
                usage in it (the upstream's, else these counts), a stream on its input and the text it
                delivered. Every answer carries an OpenAI usage object (a stream's last chunk, if you ask
                with stream_options.include_usage).

                Models and prices (USDC per 1,000 tokens, input / output):
                """.formatted(terms.chainId(), terms.contract(),
                terms.usdc() == null ? "" : " (token " + terms.usdc() + ")", identity.checksumAddress(), baseUrl,
                terms.chainId(), signingUrl, PriceList.HELD_OUTPUT_TOKENS, retention(), baseUrl));
        List<PriceList.ModelRate> chat = prices.models().stream().filter(m -> m.service() == null).toList();
        for (PriceList.ModelRate model : chat) {
            text.append("  ").append(model.id()).append(": ").append(model.inputPer1kText()).append(" / ")
                    .append(model.outputPer1kText()).append(model.flat() ? " (flat: " + model.inputPer1kText()
                            + " USDC per request)" : "").append('\n');
        }
        if (!chat.isEmpty()) {
            text.append("  example request body:\n    ").append(chat.getFirst().exampleRequest(json)).append('\n');
        }
        List<PriceList.ModelRate> services = prices.models().stream().filter(m -> m.service() != null).toList();
        if (!services.isEmpty()) {
            text.append("""

                    Services: these models are not chat models. Send the same chat completion request with
                    "model" naming the service and the last user message's content a JSON object (as text) of
                    the service's parameters below; anything else is refused (400 invalid_parameters) and costs
                    nothing, as do parameters the service does not accept. The answer is a chat completion whose
                    assistant message content is the service's result as JSON text. No streaming ("stream": true
                    is refused). Each request holds, and on success is charged, its price; a failed service
                    (502 upstream_error, also for an answer that is no result: empty, not JSON, {}, an error
                    object, or not what the provider declared; or 504 upstream_timeout) costs nothing.
                    /v1/pricing publishes a service's price per request as
                    inputPer1kTokens with outputPer1kTokens "0", so budget each voucher as your previous amount
                    plus inputPer1kTokens x 1.2; for a service priced per unit that is its highest price, and
                    its actual price (units x price per unit) is what it holds and charges. Each model's
                    "price" there says how it is priced, in base units (kind tokens, flat or per-unit).
                    """);
            for (PriceList.ModelRate model : services) {
                service(text, model);
            }
        }
        List<PriceList.ModelRate> x402 = prices.models().stream().filter(offers::offered).toList();
        if (!x402.isEmpty()) {
            text.append("""

                    Paying with x402 instead (no channel; each request is one USDC transfer the provider sends
                    on chain): models %s. The 402 of a request without payment offers x402's scheme exact in
                    the PAYMENT-REQUIRED header (v2) and in x402Version/accepts (v1) for that request's price.
                    Sign EIP-3009 TransferWithAuthorization to the offer's payTo for exactly its amount, in the
                    domain %s / %s / chain %d / the token %s, and send the same request again with
                    PAYMENT-SIGNATURE (v2) or X-PAYMENT (v1); stock x402 clients (@x402/fetch, x402-fetch) do
                    all of this. Nothing is streamed. The payment is verified before the call and settled
                    only once the answer is ready: a failed call settles nothing and the authorization may
                    pay again. The answer carries PAYMENT-RESPONSE (v2) or X-PAYMENT-RESPONSE (v1) with the
                    transaction; the same payment sent again within %s gets the same answer and is settled
                    once. A refused payment is HTTP 402 whose X-CHAN-Error is the x402 reason.
                    """.formatted(String.join(", ", x402.stream().map(PriceList.ModelRate::id).toList()),
                    properties.x402().tokenName(), properties.x402().tokenVersion(), terms.chainId(), terms.usdc(),
                    retention()));
        }
        text.append("\nPricing as JSON: ").append(baseUrl).append("/v1/pricing; models: ").append(baseUrl)
                .append("/v1/models\n");
        return text.toString();
    }

    private void service(StringBuilder text, PriceList.ModelRate model) {
        ServiceParameters service = model.service();
        text.append("\n  ").append(model.id());
        if (!model.name().equals(model.id())) {
            text.append(" (").append(model.name()).append(')');
        }
        text.append(service.description().isEmpty() ? "" : ": " + service.description()).append('\n');
        if (model.kind() == PriceKind.PER_UNIT) {
            UnitPrice units = model.units();
            text.append("    price: ").append(Usdc.formatDecimalUsdc(units.perUnit())).append(" USDC per unit of ")
                    .append(units.unit()).append(" (").append(units.unit()).append(" from ")
                    .append(units.minUnits()).append(" to ").append(units.maxUnits()).append("), so ")
                    .append(Usdc.formatDecimalUsdc(units.price(units.minUnits())))
                    .append(" to ").append(model.inputPer1kText()).append(" USDC per request\n");
        } else {
            text.append("    price: ").append(model.inputPer1kText())
                    .append(" USDC per request (voucher: previous amount + ")
                    .append(Usdc.formatDecimalUsdc(model.inputPer1k().multiply(BigInteger.valueOf(12))
                            .divide(BigInteger.TEN))).append(")\n");
        }
        text.append("    parameters:\n");
        ObjectNode schema = service.schema();
        Iterator<Map.Entry<String, JsonNode>> properties = schema.path("properties").fields();
        while (properties.hasNext()) {
            Map.Entry<String, JsonNode> property = properties.next();
            text.append("      ").append(property.getKey()).append(" (").append(type(property.getValue()))
                    .append(service.required(property.getKey()) ? ", required" : ", optional").append(')');
            List<String> bounds = bounds(property.getValue());
            if (!bounds.isEmpty()) {
                text.append(": ").append(String.join(", ", bounds));
            }
            if (property.getValue().path("description").isTextual()) {
                text.append(" - ").append(property.getValue().path("description").textValue());
            }
            text.append('\n');
        }
        if (!schema.path("additionalProperties").asBoolean(true)) {
            text.append("      no other parameters\n");
        }
        text.append("    example request body:\n      ").append(model.exampleRequest(json)).append('\n');
    }

    private static String type(JsonNode property) {
        JsonNode type = property.path("type");
        String name = type.isArray() ? String.join(" or ", texts(type)) : type.asText("any");
        if (name.isEmpty()) {
            name = "any";
        }
        if ("array".equals(name) && property.path("items").path("type").isTextual()) {
            return "array of " + property.path("items").path("type").textValue();
        }
        return name;
    }

    private static List<String> texts(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.isTextual() ? v.textValue() : v.toString()));
        return values;
    }

    private static List<String> bounds(JsonNode property) {
        List<String> bounds = new ArrayList<>();
        String[][] named = {{"minimum", "at least"}, {"exclusiveMinimum", "above"}, {"maximum", "at most"},
                {"exclusiveMaximum", "below"}, {"minLength", "min length"}, {"maxLength", "max length"},
                {"minItems", "min items"}, {"maxItems", "max items"}, {"pattern", "matching"}, {"format", "format"}};
        for (String[] bound : named) {
            if (property.has(bound[0])) {
                bounds.add(bound[1] + " " + property.get(bound[0]).asText());
            }
        }
        if (property.path("enum").isArray()) {
            bounds.add("one of " + String.join(", ", texts(property.path("enum"))));
        }
        if (property.has("default")) {
            bounds.add("default " + property.get("default"));
        }
        return bounds;
    }

    /** The answer retention as agents read it: whole minutes, or seconds below one. */
    private String retention() {
        java.time.Duration retention = properties.answerRetention();
        return retention.toMinutes() > 0 ? retention.toMinutes() + " minutes" : retention.toSeconds() + " seconds";
    }
}
