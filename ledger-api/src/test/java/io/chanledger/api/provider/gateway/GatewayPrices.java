package io.chanledger.api.provider.gateway;

import java.math.BigInteger;
import java.util.OptionalLong;
import org.springframework.context.ApplicationContext;

/**
 * What the gateway holds and charges for a request to the echo backend, from a price list: the
 * running gateway's (for tests outside this package, which cannot name the price list) or one
 * given.
 */
public final class GatewayPrices {

    /** The answer limit of the echo backend's answers, in tokens, when a request sets none. */
    public static final int ECHO_ANSWER_TOKENS = 256;

    private final PriceList prices;

    public GatewayPrices(ApplicationContext context) {
        this.prices = context.getBean(PriceList.class);
    }

    public BigInteger hold(String model, String content, Integer maxTokens) {
        return hold(prices, model, content, maxTokens);
    }

    public BigInteger cost(String model, String content, long answerLimit) {
        return cost(prices, model, content, answerLimit);
    }

    /** The echo backend's answer to {@link Agent#chatBody} with {@code content}, cut to {@code answerLimit} tokens. */
    static String echoAnswer(String model, String content, long answerLimit) {
        return Tokenizer.forModel(model).truncate(EchoUpstream.PREFIX + content, answerLimit);
    }

    static long inputTokens(String model, String content) {
        Tokenizer tokenizer = Tokenizer.forModel(model);
        return tokenizer.count(Agent.SYSTEM_PROMPT) + tokenizer.count(content);
    }

    /** What the echo backend's answer to {@link Agent#chatBody} costs, answers cut to {@code answerLimit} tokens. */
    static BigInteger cost(PriceList prices, String model, String content, long answerLimit) {
        long out = Tokenizer.forModel(model).count(echoAnswer(model, content, answerLimit));
        return prices.model(model).orElseThrow().cost(inputTokens(model, content), out);
    }

    /** What such a request holds before the upstream call. */
    static BigInteger hold(PriceList prices, String model, String content, Integer maxTokens) {
        return prices.model(model).orElseThrow().hold(inputTokens(model, content),
                maxTokens == null ? OptionalLong.empty() : OptionalLong.of(maxTokens));
    }
}
