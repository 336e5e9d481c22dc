package io.chanledger.api.provider.x402;

import java.math.BigInteger;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The provider's x402 facilitator: {@code chan.gateway.x402.facilitator.*} (docs/configuration.md).
 *
 * @param endpoints      serve {@code /x402/facilitator/verify}, {@code /settle} and {@code /supported}
 *                       to resource servers of the provider's own
 * @param minAmount      the smallest payment {@code /settle} sends a transaction for, in base units:
 *                       each costs the provider's wallet the gas of one transfer, so a stranger's
 *                       dust payments must not drain it
 * @param receiptTimeout how long a settlement waits for its receipt before answering that it is pending
 * @param validityMargin how long an authorization must still be valid past now to be taken
 */
@ConfigurationProperties("chan.gateway.x402.facilitator")
public record X402FacilitatorProperties(
        @DefaultValue("true") boolean endpoints,
        @DefaultValue("1000") BigInteger minAmount,
        @DefaultValue("30s") Duration receiptTimeout,
        @DefaultValue("6s") Duration validityMargin) {

    public X402FacilitatorProperties {
        if (minAmount == null || minAmount.signum() < 0) {
            throw new IllegalArgumentException("chan.gateway.x402.facilitator.min-amount must be at least 0");
        }
        if (receiptTimeout == null || receiptTimeout.isNegative() || validityMargin == null || validityMargin.isNegative()) {
            throw new IllegalArgumentException("chan.gateway.x402.facilitator durations must not be negative");
        }
    }
}
