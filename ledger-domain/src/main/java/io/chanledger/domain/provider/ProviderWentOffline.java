package io.chanledger.domain.provider;

import java.time.Instant;

public record ProviderWentOffline(String providerId, String reason, int consecutiveFailures, Instant at) {
}
