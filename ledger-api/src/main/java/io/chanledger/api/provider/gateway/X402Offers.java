package io.chanledger.api.provider.gateway;

import io.chanledger.api.config.ProtocolProperties;
import io.chanledger.api.provider.x402.PaymentRequired;
import io.chanledger.api.provider.x402.PaymentRequirements;
import io.chanledger.api.provider.x402.SettlementResponse;
import io.chanledger.api.provider.x402.X402Codec;
import io.chanledger.api.provider.x402.X402Reason;
import io.chanledger.api.provider.x402.X402Settlement;
import io.chanledger.domain.money.Usdc;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpStatus;

/**
 * What the gateway offers x402 clients: scheme {@code exact} on Polygon in USDC to the provider's
 * wallet, for the price of the request. {@code exact} moves one payment in one transaction that the
 * provider's wallet sends and pays gas for, and it must carry the price before the call: so it is
 * offered for a model only when every request's price is known before the call (flat-priced models
 * and services, per-unit services, whose price follows from their checked parameters) and is at
 * least {@code chan.gateway.x402.min-price}. Token-priced models, whose price is known only once
 * the answer is, are sold on channels only. Nothing is offered where no facilitator settles
 * (a gateway without a chain or a token).
 *
 * <p>Also writes the unpaid and refused answers' x402 part: v2's {@code PAYMENT-REQUIRED} header
 * and v1's {@code x402Version} and {@code accepts} beside the {@code error} object, and, for a
 * settlement that failed, the settlement response header of the payment's version.
 */
final class X402Offers {

    /** How a model may be paid for, as the listing names it: a channel voucher, and x402's {@code exact}. */
    static final String CHANNEL = ProtocolProperties.NAME;
    static final String X402_EXACT = "x402-exact";

    private final GatewayProperties.X402 settings;
    private final BigInteger minPrice;
    private final String asset;
    private final String payTo;
    private final X402Settlement settlement;
    private final X402Codec codec = new X402Codec();

    X402Offers(GatewayProperties.X402 settings, String asset, String payTo, X402Settlement settlement) {
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
        this.settlement = settlement;
    }

    /** The facilitator that verifies and settles x402 payments; null where none does. */
    X402Settlement settlement() {
        return settlement;
    }

    X402Codec codec() {
        return codec;
    }

    /** Whether {@code exact} is offered for every request of {@code model}. */
    boolean offered(PriceList.ModelRate model) {
        return lowestPrice(model).filter(price -> price.compareTo(minPrice) >= 0).isPresent()
                && settings.enabled() && asset != null && settlement != null;
    }

    /** The ways {@code model} may be paid for. */
    List<String> ways(PriceList.ModelRate model) {
        return offered(model) ? List.of(CHANNEL, X402_EXACT) : List.of(CHANNEL);
    }

    /** The lowest price of one request, when every request's price is known before the call. */
    private static Optional<BigInteger> lowestPrice(PriceList.ModelRate model) {
        return switch (model.kind()) {
            case FLAT -> Optional.of(model.inputPer1k());
            case PER_UNIT -> Optional.of(model.units().price(model.units().minUnits()));
            case TOKENS -> Optional.empty();
        };
    }

    /** The {@code exact} offer for a request priced {@code price}. */
    PaymentRequirements exact(BigInteger price) {
        return PaymentRequirements.exact(price, asset, settings.tokenName(), settings.tokenVersion(), payTo,
                settings.maxTimeoutSeconds());
    }

    /** The unpaid answer's x402 content for a request of {@code url} priced {@code price}. */
    PaymentRequired required(String url, String description, BigInteger price) {
        return required(url, description, price, "payment required: pay " + Usdc.formatDecimalUsdc(price)
                + " USDC with x402 exact, or with a channel voucher (X-CHAN-Voucher)");
    }

    private PaymentRequired required(String url, String description, BigInteger price, String error) {
        return new PaymentRequired(error, new PaymentRequired.Resource(url, description, "application/json"),
                List.of(exact(price)));
    }

    /**
     * A 402 {@code code} with {@code message}, the channel terms (added by the exception handler)
     * and {@code required}'s x402 offer: the unpaid answer, or a refused payment offered again.
     */
    GatewayProblem paymentRequired(String code, String message, PaymentRequired required,
                                   Map<String, String> headers) {
        Map<String, String> allHeaders = new LinkedHashMap<>(headers);
        allHeaders.put(X402Codec.PAYMENT_REQUIRED, codec.encodePaymentRequired(required));
        return new GatewayProblem(HttpStatus.PAYMENT_REQUIRED, code, message, allHeaders,
                Map.of("x402Version", 1, "accepts", codec.v1Body(required).get("accepts")));
    }

    /**
     * An x402 payment refused for {@code reason}: a 402 naming it ({@code X-CHAN-Error}, the
     * error's {@code code}, v2's {@code error}), with the offer of the request again when it has one
     * ({@code url} not null) and, when a settlement failed, its {@code failed} response in the
     * header of the payment's {@code version}.
     */
    GatewayProblem refused(X402Reason reason, String detail, String url, String description, BigInteger price,
                           SettlementResponse failed, int version) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (failed != null) {
            headers.put(version == 1 ? X402Codec.X_PAYMENT_RESPONSE : X402Codec.PAYMENT_RESPONSE,
                    codec.encodeSettlementResponse(failed));
        }
        String message = "the x402 payment was refused: " + reason.code() + (detail == null ? "" : " (" + detail + ")")
                + "; nothing was charged";
        if (url == null) {
            return new GatewayProblem(HttpStatus.PAYMENT_REQUIRED, reason.code(), message, headers);
        }
        return paymentRequired(reason.code(), message, required(url, description, price, reason.code()), headers);
    }
}
