package io.chanledger.domain.provider;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * What a check of the provider's inference side found ({@code /v1/docs} and the unpaid probe of
 * {@code POST /v1/chat/completions}): {@code up}, or down for {@code reason} after
 * {@code consecutiveFailures} failed checks in a row. Recorded only when it changes the provider's
 * inference status.
 */
public record RecordProviderInference(
        @TargetAggregateIdentifier String providerId,
        boolean up,
        String reason,
        int consecutiveFailures,
        Instant checkedAt) {
}
