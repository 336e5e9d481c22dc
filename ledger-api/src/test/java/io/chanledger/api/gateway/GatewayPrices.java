package io.chanledger.api.gateway;

import java.math.BigInteger;
import org.springframework.context.ApplicationContext;

/**
 * What the running gateway holds and charges for a request, from its own price list: for tests
 * outside this package, which cannot name the price list.
 */
public final class GatewayPrices {

    /** The answer limit of the echo backend's answers, in tokens, when a request sets none. */
    public static final int ECHO_ANSWER_TOKENS = 256;

    private final PriceList prices;

    public GatewayPrices(ApplicationContext context) {
        this.prices = context.getBean(PriceList.class);
    }

    public BigInteger hold(String model, String content, Integer maxTokens) {
        return GatewayFlowTest.hold(prices, model, content, maxTokens);
    }

    public BigInteger cost(String model, String content, long answerLimit) {
        return GatewayFlowTest.cost(prices, model, content, answerLimit);
    }
}
