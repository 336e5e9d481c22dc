package io.chanledger.domain.provider;

import java.math.BigDecimal;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Sets the provider's incentive score, 0 to 1 (for miners, their subnet incentive). */
public record UpdateProviderScore(@TargetAggregateIdentifier String providerId, BigDecimal score, Instant updatedAt) {
}
