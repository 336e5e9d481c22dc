package io.chanledger.domain.provider;

import java.time.Instant;

/** The provider's inference side answers as agents need it: docs to read, a 402 with the payment terms. */
public record ProviderInferenceWentOnline(String providerId, Instant at) {
}
