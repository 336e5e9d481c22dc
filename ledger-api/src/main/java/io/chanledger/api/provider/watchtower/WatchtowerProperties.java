package io.chanledger.api.provider.watchtower;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The watchtower's claims on-chain: {@code chan.gateway.watchtower.*}, settings of the provider's
 * gateway by name, but the watchtower's own record. A channel is claimed when what it earned and is
 * unclaimed reaches {@code claimThreshold} (decimal USDC), and always once its expiry is its margin
 * away on the chain's clock: {@code expiryMarginPercent} of the channel's life (expiry less the
 * time of its open block), but never less than {@code expiryMarginMin} (which must cover a round,
 * the chain's confirmation and a retry: keep it at least twice {@code interval}) and never more
 * than {@code expiryMargin}. So a short channel is claimed near its end only, and one its consumer
 * closes cooperatively before costs no claim. Transient failures are retried after
 * {@code initialBackoff}, doubling up to {@code maxBackoff}; a claim that keeps failing for other reasons
 * stops after {@code maxAttempts}. {@code rpcUrl} overrides {@code chan.chain.rpc-url} for claims.
 * Fees and the JSON-RPC client's timeout and attempts are the shared {@code chan.chain.fees} and
 * {@code chan.chain.rpc}. What the chain paid above a channel's charged total (an expiry claim can
 * only use a voucher the consumer signed) is given back to the consumer once the channel has ended,
 * when it is more than {@code minReturn} (decimal USDC; 0: always).
 */
@ConfigurationProperties("chan.gateway.watchtower")
public record WatchtowerProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("30s") Duration interval,
        @DefaultValue("5") String claimThreshold,
        @DefaultValue("1h") Duration expiryMargin,
        @DefaultValue("5s") Duration initialBackoff,
        @DefaultValue("5m") Duration maxBackoff,
        @DefaultValue("6") int maxAttempts,
        @DefaultValue("2m") Duration receiptTimeout,
        String rpcUrl,
        @DefaultValue("0") String minReturn,
        @DefaultValue("10") int expiryMarginPercent,
        @DefaultValue("60s") Duration expiryMarginMin) {

    @ConstructorBinding
    public WatchtowerProperties {
        if (expiryMarginPercent < 0 || expiryMarginPercent > 100) {
            throw new IllegalArgumentException("chan.gateway.watchtower.expiry-margin-percent must lie"
                    + " between 0 and 100, not " + expiryMarginPercent);
        }
    }

    /** The settings above with the default share of a channel's life and floor of its margin. */
    public WatchtowerProperties(boolean enabled, Duration interval, String claimThreshold, Duration expiryMargin,
                                Duration initialBackoff, Duration maxBackoff, int maxAttempts,
                                Duration receiptTimeout, String rpcUrl, String minReturn) {
        this(enabled, interval, claimThreshold, expiryMargin, initialBackoff, maxBackoff, maxAttempts,
                receiptTimeout, rpcUrl, minReturn, 10, Duration.ofSeconds(60));
    }
}
