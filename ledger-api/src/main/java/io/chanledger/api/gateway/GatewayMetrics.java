package io.chanledger.api.gateway;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigInteger;
import org.springframework.stereotype.Component;

/**
 * {@code chan.gateway.requests{outcome}}: paid, voucher_required, upstream_error,
 * insufficient_funds_post, client_gone (a stream the client left), cut (a stream stopped when
 * the voucher was spent). {@code chan.gateway.charged}: base units charged.
 */
@Component
@ConditionalOnGateway
class GatewayMetrics {

    private final MeterRegistry meters;
    private final Counter charged;

    GatewayMetrics(MeterRegistry meters) {
        this.meters = meters;
        this.charged = Counter.builder("chan.gateway.charged").baseUnit("usdc_base_units")
                .description("what paid requests were charged").register(meters);
    }

    void request(String outcome) {
        meters.counter("chan.gateway.requests", "outcome", outcome).increment();
    }

    void charged(BigInteger amount) {
        charged.increment(amount.doubleValue());
    }
}
