package io.chanledger.domain.provider;

import java.math.BigDecimal;
import java.time.Instant;

public record ProviderScoreUpdated(String providerId, BigDecimal score, Instant updatedAt) {
}
