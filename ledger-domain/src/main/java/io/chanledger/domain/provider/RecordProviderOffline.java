package io.chanledger.domain.provider;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * The provider failed {@code consecutiveFailures} health checks in a row, the last one for
 * {@code reason}; recorded only if it was online.
 */
public record RecordProviderOffline(
        @TargetAggregateIdentifier String providerId,
        String reason,
        int consecutiveFailures,
        Instant checkedAt) {
}
