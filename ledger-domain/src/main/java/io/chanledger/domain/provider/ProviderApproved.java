package io.chanledger.domain.provider;

import java.time.Instant;

/** The provider is listed. {@code automatic}: by the tier policy at registration, not by an admin. */
public record ProviderApproved(String providerId, Instant approvedAt, boolean automatic) {
}
