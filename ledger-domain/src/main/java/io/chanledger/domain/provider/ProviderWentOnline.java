package io.chanledger.domain.provider;

import java.time.Instant;

public record ProviderWentOnline(String providerId, Instant at) {
}
