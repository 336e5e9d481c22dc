package io.chanledger.domain.provider;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** A health check found the provider answering; recorded only if it was offline. */
public record RecordProviderOnline(@TargetAggregateIdentifier String providerId, Instant checkedAt) {
}
