package io.chanledger.domain.provider;

import java.time.Instant;

public record ProviderSuspended(String providerId, String reason, Instant suspendedAt) {
}
