package io.chanledger.domain.provider;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Lists a pending provider, or reinstates a suspended one. */
public record ApproveProvider(@TargetAggregateIdentifier String providerId, Instant approvedAt) {
}
