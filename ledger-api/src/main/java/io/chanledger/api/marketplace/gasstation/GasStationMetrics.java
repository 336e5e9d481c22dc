package io.chanledger.api.marketplace.gasstation;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.http.HttpStatus;

/**
 * {@code chan.gasstation.grants} (confirmed transfers, tagged by who confirmed them: the request
 * or recovery), {@code chan.gasstation.refusals} (tagged by reason code) and
 * {@code chan.gasstation.faucet.balance} (POL, as last read; absent until first read).
 */
class GasStationMetrics {

    private static final BigDecimal WEI_PER_POL = BigDecimal.TEN.pow(18);

    private final MeterRegistry registry;
    private final Counter requestGrants;
    private final Counter recoveredGrants;
    private final Map<String, Counter> refusals = new ConcurrentHashMap<>();
    private final AtomicReference<BigInteger> faucetBalance = new AtomicReference<>();

    GasStationMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.requestGrants = Counter.builder("chan.gasstation.grants").tag("confirmedBy", "request")
                .description("gas grants confirmed on-chain").register(registry);
        this.recoveredGrants = Counter.builder("chan.gasstation.grants").tag("confirmedBy", "recovery")
                .description("gas grants confirmed on-chain").register(registry);
        Gauge.builder("chan.gasstation.faucet.balance", faucetBalance, GasStationMetrics::pol)
                .description("the faucet's balance in POL, as last read")
                .baseUnit("POL")
                .register(registry);
    }

    void granted(boolean byRecovery) {
        (byRecovery ? recoveredGrants : requestGrants).increment();
    }

    /** Counts the reply when it refuses. */
    GasStationReply counted(GasStationReply reply) {
        if (reply.status() != HttpStatus.OK) {
            refused(reply.code());
        }
        return reply;
    }

    private void refused(String code) {
        refusals.computeIfAbsent(code, reason -> Counter.builder("chan.gasstation.refusals").tag("reason", reason)
                .description("gas station requests answered without a grant").register(registry)).increment();
    }

    void faucetBalance(BigInteger wei) {
        faucetBalance.set(wei);
    }

    private static double pol(AtomicReference<BigInteger> balance) {
        BigInteger wei = balance.get();
        return wei == null ? Double.NaN : new BigDecimal(wei).divide(WEI_PER_POL).doubleValue();
    }
}
