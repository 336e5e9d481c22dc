package io.chanledger.api.provider.gateway;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigInteger;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * {@code chan.gateway.requests{outcome}}: paid, voucher_required, upstream_error, upstream_timeout,
 * insufficient_funds_post, client_gone (a stream the client left), cut (a stream stopped when
 * the voucher was spent), replayed (a kept answer sent again to its voucher, free), request_running
 * (its voucher, or its x402 payment, re-sent while the request runs), x402_refused (an x402 payment
 * refused before the call), x402_settlement_failed and x402_settlement_pending (an answer withheld
 * because its settlement failed, or is not mined yet). {@code chan.gateway.charged}: base units
 * charged, on channels and by x402 settlements.
 */
@Component
class GatewayMetrics {

    private final MeterRegistry meters;
    private final Counter charged;
    /** One counter per outcome, looked up once: no tags built for every request. */
    private final Map<String, Counter> requests = new ConcurrentHashMap<>();

    GatewayMetrics(MeterRegistry meters) {
        this.meters = meters;
        this.charged = Counter.builder("chan.gateway.charged").baseUnit("usdc_base_units")
                .description("what paid requests were charged").register(meters);
    }

    void request(String outcome) {
        requests.computeIfAbsent(outcome, key -> meters.counter("chan.gateway.requests", "outcome", key)).increment();
    }

    void charged(BigInteger amount) {
        charged.increment(amount.doubleValue());
    }
}
