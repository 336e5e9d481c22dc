package io.chanledger.api.provider.x402;

import java.util.List;
import java.util.Objects;

/**
 * The content of an unpaid answer: v2's {@code PAYMENT-REQUIRED} header ({@code resource} and
 * {@code accepts}), from which {@link X402Codec#v1Body} also writes v1's 402 body.
 */
public record PaymentRequired(String error, Resource resource, List<PaymentRequirements> accepts) {

    public PaymentRequired {
        Objects.requireNonNull(resource, "resource");
        accepts = List.copyOf(accepts);
    }

    /** What is sold: its URL, and optionally a description and the answer's media type. */
    public record Resource(String url, String description, String mimeType) {
        public Resource {
            Objects.requireNonNull(url, "url");
        }
    }
}
