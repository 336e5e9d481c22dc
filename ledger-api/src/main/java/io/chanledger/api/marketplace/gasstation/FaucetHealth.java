package io.chanledger.api.marketplace.gasstation;

import io.chanledger.api.marketplace.gasstation.FaucetChain.FaucetFunds;
import io.chanledger.chain.rpc.RpcException;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The faucet's funds as last read, by a request or by the health check: health reads them again
 * only when they are older than it allows, so probes do not put a node call on every hit.
 */
final class FaucetHealth {

    // the gas station's log lines keep the category they had before its parts were split up
    private static final Logger log = LoggerFactory.getLogger(GasStation.class);

    private final FaucetChain chain;
    private final BigInteger grantWei;
    private final GasStationMetrics metrics;
    private final Clock clock;
    private volatile Check last;

    /** The faucet as last read: its funds, or why they could not be read. */
    record Check(FaucetFunds funds, String failure, Instant checkedAt) {
    }

    FaucetHealth(FaucetChain chain, BigInteger grantWei, GasStationMetrics metrics, Clock clock) {
        this.chain = chain;
        this.grantWei = grantWei;
        this.metrics = metrics;
        this.clock = clock;
    }

    /** Reads the faucet's funds and keeps them for health and the gauge. */
    FaucetFunds read() {
        try {
            FaucetFunds funds = chain.funds(grantWei);
            last = new Check(funds, null, clock.instant());
            metrics.faucetBalance(funds.balance());
            return funds;
        } catch (RpcException e) {
            last = new Check(null, e.getMessage(), clock.instant());
            throw e;
        }
    }

    /** The last read, read again when older than {@code maxAge}. */
    Check latest(Duration maxAge) {
        Check check = last;
        if (check == null || check.checkedAt().plus(maxAge).isBefore(clock.instant())) {
            try {
                read();
            } catch (RpcException e) {
                log.debug("gas station: faucet check failed: {}", e.getMessage());
            }
            check = last;
        }
        return check;
    }
}
