package io.chanledger.api.gateway;

import io.chanledger.api.config.ProtocolProperties;
import org.springframework.stereotype.Component;

/** The plain-text instructions of {@code /v1/docs}, written from the gateway's configuration. */
@Component
@ConditionalOnGateway
class AgentDocs {

    private final PriceList prices;
    private final ProviderIdentity identity;
    private final PaymentTerms terms;
    private final GatewayProperties properties;

    AgentDocs(PriceList prices, ProviderIdentity identity, PaymentTerms terms, GatewayProperties properties) {
        this.prices = prices;
        this.identity = identity;
        this.terms = terms;
        this.properties = properties;
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
                   more than the voucher leaves, the voucher's room is charged and the answer withheld
                   (insufficient_funds_post). So budget each voucher as your previous amount plus an
                   estimate with a buffer, e.g. (characters/4 x input price + (max_tokens or 500) x output
                   price) / 1000 x 1.2. Your request is sent upstream exactly as you sent it (no max_tokens
                   is added). Every voucher pays for one request only.
                4. Answers carry X-CHAN-Cost (this request), X-CHAN-Total (charged so far) and X-CHAN-Remaining
                   (deposit left). With "stream": true the same figures follow data: [DONE] as SSE comments.
                   A refused voucher is HTTP 402 with X-CHAN-Error; insufficient_funds also says
                   X-CHAN-Required (this request's hold) and X-CHAN-Provided (your amount less what was
                   charged so far).
                5. When done, POST %s/v1/close-channel {"channelId":"0x..."} returns {finalAmount, signature};
                   call cooperativeClose(channelId, finalAmount, signature) on the contract to get the rest of
                   the deposit back at once.

                Token counting: OpenAI's encodings (o200k_base for gpt-4o, gpt-4.1, gpt-5 and o-series models,
                cl100k_base for gpt-4, gpt-3.5 and every other model); the upstream's reported usage is
                billed where it reports one.

                Models and prices (USDC per 1,000 tokens, input / output):
                """.formatted(terms.chainId(), terms.contract(),
                terms.usdc() == null ? "" : " (token " + terms.usdc() + ")", identity.checksumAddress(), baseUrl,
                terms.chainId(), signingUrl, PriceList.HELD_OUTPUT_TOKENS, baseUrl));
        for (PriceList.ModelRate model : prices.models()) {
            text.append("  ").append(model.id()).append(": ").append(model.inputPer1kText()).append(" / ")
                    .append(model.outputPer1kText()).append('\n');
        }
        text.append("\nPricing as JSON: ").append(baseUrl).append("/v1/pricing; models: ").append(baseUrl)
                .append("/v1/models\n");
        return text.toString();
    }
}
