package io.chanledger.domain.provider;

import java.time.Instant;

/** The provider's inference side failed {@code consecutiveFailures} checks in a row, the last one for {@code reason}. */
public record ProviderInferenceWentOffline(String providerId, String reason, int consecutiveFailures, Instant at) {
}
