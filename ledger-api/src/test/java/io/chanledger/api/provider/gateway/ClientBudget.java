package io.chanledger.api.provider.gateway;

import java.math.BigInteger;
import java.util.List;

/**
 * How the marketplace's agent client budgets a voucher (docs/protocol.md §D.2), in integers: input
 * tokens = ceil(characters of all messages / 4), output tokens = the agent's {@code max_tokens} or
 * 500; estimate = (input × inputPer1k + output × outputPer1k) / 1000 × 1.2, or the flat price ×
 * 1.2 for a flat-priced model; rounded down, the least a client could send. The voucher's amount
 * is the previous amount of the channel plus this estimate.
 */
final class ClientBudget {

    static final long DEFAULT_OUTPUT_TOKENS = 500;

    private ClientBudget() {
    }

    static BigInteger estimate(PriceList.ModelRate rate, List<String> messages, Integer maxTokens) {
        if (rate.outputPer1k().signum() == 0 && rate.inputPer1k().signum() > 0) {
            return rate.inputPer1k().multiply(BigInteger.valueOf(12)).divide(BigInteger.TEN);
        }
        long characters = messages.stream().mapToLong(String::length).sum();
        long input = (characters + 3) / 4;
        long output = maxTokens == null ? DEFAULT_OUTPUT_TOKENS : maxTokens;
        return BigInteger.valueOf(input).multiply(rate.inputPer1k())
                .add(BigInteger.valueOf(output).multiply(rate.outputPer1k()))
                .multiply(BigInteger.valueOf(12)).divide(BigInteger.valueOf(10_000));
    }

    /** The estimate of a request made with {@link Agent#chatBody}: a short system message and {@code content}. */
    static BigInteger estimate(PriceList.ModelRate rate, String content, Integer maxTokens) {
        return estimate(rate, List.of(Agent.SYSTEM_PROMPT, content), maxTokens);
    }
}
