package io.chanledger.domain.provider;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Takes a provider off the lists (and out of the health checks) until it is approved again. */
public record SuspendProvider(@TargetAggregateIdentifier String providerId, String reason, Instant suspendedAt) {
}
