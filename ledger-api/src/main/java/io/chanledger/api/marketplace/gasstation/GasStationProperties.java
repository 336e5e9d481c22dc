package io.chanledger.api.marketplace.gasstation;

import io.chanledger.api.http.ClientRateLimiter;
import java.math.BigInteger;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The gas station: {@code chan.gas-station.*}. It is on when a faucet key and
 * {@code chan.chain.rpc-url} are configured, and answers {@code gas_station_disabled} otherwise.
 *
 * <ul>
 * <li>{@code faucetKey} / {@code faucetKeyFile}: the faucet's private key (hex), from the environment
 *     ({@code CHAN_GAS_STATION_FAUCET_KEY}) or a file ({@code CHAN_GAS_STATION_FAUCET_KEY_FILE}). Never
 *     logged, never rendered; the faucet should be an account nothing else sends from.</li>
 * <li>{@code grantWei}: the grant (0.1 POL); {@code minUsdc}: USDC base units the wallet must hold (5 USDC).</li>
 * <li>{@code transferGas}: gas limit of the plain transfer. Fees are the shared {@code chan.chain.fees}.</li>
 * <li>{@code receiptTimeout}, {@code receiptPollInterval}: how long a request waits for the receipt.</li>
 * <li>The station's own JSON-RPC client follows the shared {@code chan.chain.rpc}.</li>
 * <li>{@code staleAfter}: a pending attempt that no request of this instance is working on and is older
 *     than this is resolved from the chain (its request died); {@code resolveInterval}: how often pending
 *     grants are looked at; {@code maxScanBlocks}: blocks searched for a transfer whose hash was never
 *     recorded.</li>
 * <li>{@code retryAfter}: the Retry-After of 503 and grant-pending answers; {@code faucetCheckMaxAge}:
 *     how old the faucet balance behind health and the gauge may be.</li>
 * <li>{@code rateLimit}: a token bucket per client address, in memory per instance; {@code clientIpHeader}:
 *     a header set by a trusted reverse proxy whose last entry is the client address (empty: the
 *     connection's peer address).</li>
 * <li>{@code grants}: a token bucket of the grants made to all clients together, so that many
 *     wallets cannot drain the faucet at once (each wallet is granted once anyway); only transfers
 *     that paid, or may have, count against it; in memory per instance.</li>
 * </ul>
 */
@ConfigurationProperties("chan.gas-station")
public record GasStationProperties(
        String faucetKey,
        String faucetKeyFile,
        @DefaultValue("100000000000000000") BigInteger grantWei,
        @DefaultValue("5000000") BigInteger minUsdc,
        @DefaultValue("21000") long transferGas,
        @DefaultValue("60s") Duration receiptTimeout,
        @DefaultValue("1s") Duration receiptPollInterval,
        @DefaultValue("3m") Duration staleAfter,
        @DefaultValue("30s") Duration resolveInterval,
        @DefaultValue("5000") int maxScanBlocks,
        @DefaultValue("30s") Duration retryAfter,
        @DefaultValue("15s") Duration faucetCheckMaxAge,
        String clientIpHeader,
        @DefaultValue RateLimit rateLimit,
        @DefaultValue Grants grants) {

    /** {@code capacity} requests at once per client, then one more every {@code refillInterval}. */
    public record RateLimit(
            @DefaultValue("5") int capacity,
            @DefaultValue("1m") Duration refillInterval,
            @DefaultValue("100000") int maxClients) {

        public RateLimit {
            if (capacity < 1 || refillInterval.isNegative() || refillInterval.isZero() || maxClients < 1) {
                throw new IllegalArgumentException(
                        "chan.gas-station.rate-limit needs capacity >= 1, a positive refill-interval and max-clients >= 1");
            }
        }

        ClientRateLimiter newLimiter() {
            return new ClientRateLimiter(capacity, refillInterval, maxClients, System::nanoTime);
        }
    }

    /** Grants to all clients together: {@code capacity} at once, then one more every {@code refillInterval}. */
    public record Grants(
            @DefaultValue("10") int capacity,
            @DefaultValue("5m") Duration refillInterval) {

        public Grants {
            if (capacity < 1 || refillInterval.isNegative() || refillInterval.isZero()) {
                throw new IllegalArgumentException(
                        "chan.gas-station.grants needs capacity >= 1 and a positive refill-interval");
            }
        }

        ClientRateLimiter newLimiter() {
            return new ClientRateLimiter(capacity, refillInterval, 1, System::nanoTime);
        }
    }

    public GasStationProperties {
        if (grantWei.signum() <= 0 || minUsdc.signum() < 0 || transferGas < 21_000 || maxScanBlocks < 1) {
            throw new IllegalArgumentException("chan.gas-station needs grant-wei > 0, min-usdc >= 0,"
                    + " transfer-gas >= 21000 and max-scan-blocks >= 1");
        }
    }

    @Override
    public String toString() {
        return "GasStationProperties[faucetKey=" + (faucetKey == null || faucetKey.isBlank() ? "none" : "***")
                + ", faucetKeyFile=" + faucetKeyFile + ", grantWei=" + grantWei + ", minUsdc=" + minUsdc + "]";
    }
}
