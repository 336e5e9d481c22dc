package io.chanledger.api.provider.gateway;

import io.chanledger.api.config.ProtocolProperties;
import io.chanledger.api.provider.x402.PaymentRequired;
import io.chanledger.api.provider.x402.PaymentRequirements;
import io.chanledger.domain.money.Usdc;
import java.math.BigInteger;
import java.util.List;
import java.util.Optional;

/**
 * What the gateway offers x402 clients: scheme {@code exact} on Polygon in USDC to the provider's
 * wallet, for the price of the request. {@code exact} moves one payment in one transaction that the
 * provider's wallet sends and pays gas for, and it must carry the price before the call: so it is
 * offered for a model only when every request's price is known before the call (flat-priced models
 * and services, per-unit services, whose price follows from their checked parameters) and is at
 * least {@code chan.gateway.x402.min-price}. Token-priced models, whose price is known only once
 * the answer is, are sold on channels only.
 */
final class X402Offers {

    /** How a model may be paid for, as the listing names it: a channel voucher, and x402's {@code exact}. */
    static final String CHANNEL = ProtocolProperties.NAME;
    static final String X402_EXACT = "x402-exact";

    private final GatewayProperties.X402 settings;
    private final BigInteger minPrice;
    private final String asset;
    private final String payTo;

    X402Offers(GatewayProperties.X402 settings, String asset, String payTo) {
        this.settings = settings;
        try {
            this.minPrice = Usdc.parseDecimalUsdc(settings.minPrice());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("chan.gateway.x402.min-price: " + e.getMessage());
        }
        if (settings.maxTimeoutSeconds() <= 0) {
            throw new IllegalStateException("chan.gateway.x402.max-timeout-seconds must be above 0");
        }
        this.asset = asset;
        this.payTo = payTo;
    }

    /** Whether {@code exact} is offered for every request of {@code model}. */
    boolean offered(PriceList.ModelRate model) {
        return lowestPrice(model).filter(price -> price.compareTo(minPrice) >= 0).isPresent()
                && settings.enabled() && asset != null;
    }

    /** The ways {@code model} may be paid for. */
    List<String> ways(PriceList.ModelRate model) {
        return offered(model) ? List.of(CHANNEL, X402_EXACT) : List.of(CHANNEL);
    }

    /** The lowest price of one request, when every request's price is known before the call. */
    private static Optional<BigInteger> lowestPrice(PriceList.ModelRate model) {
        return switch (model.pricing()) {
            case FLAT -> Optional.of(model.inputPer1k());
            case PER_UNIT -> Optional.of(model.units().pricePerUnit().multiply(BigInteger.valueOf(model.units().min())));
            case TOKENS -> model.flat() ? Optional.of(model.inputPer1k()) : Optional.empty();
        };
    }

    /** The {@code exact} offer for a request priced {@code price}. */
    PaymentRequirements exact(BigInteger price) {
        return PaymentRequirements.exact(price, asset, settings.tokenName(), settings.tokenVersion(), payTo,
                settings.maxTimeoutSeconds());
    }

    /** The unpaid answer's x402 content for a request of {@code url} priced {@code price}. */
    PaymentRequired required(String url, String description, BigInteger price) {
        return new PaymentRequired("payment required: pay " + Usdc.formatDecimalUsdc(price) + " USDC with x402 "
                + "exact, or with a channel voucher (X-CHAN-Voucher)",
                new PaymentRequired.Resource(url, description, "application/json"), List.of(exact(price)));
    }
}
