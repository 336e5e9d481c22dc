package io.chanledger.api.provider.watchtower;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code chan.gateway.claims{outcome}}: mined, confirmed, transient, retried, failed.
 * {@code chan.gateway.claims.failed}: claims stopped for good (alert on any).
 * {@code chan.gateway.channels.at_risk}: channels within the expiry margin whose earnings are not
 * claimed and confirmed yet, as of the last round.
 * {@code chan.gateway.watchtower.waits}: rounds that did nothing because the ledger's view of the
 * chain was behind its head.
 */
final class WatchtowerMetrics {

    private final MeterRegistry meters;
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong atRisk = new AtomicLong();

    WatchtowerMetrics(MeterRegistry meters, String provider) {
        this.meters = meters;
        Gauge.builder("chan.gateway.claims.failed", failed, AtomicLong::get).tag("provider", provider)
                .description("claims that failed for good").register(meters);
        Gauge.builder("chan.gateway.channels.at_risk", atRisk, AtomicLong::get).tag("provider", provider)
                .description("channels near expiry with earnings not yet claimed").register(meters);
    }

    void claim(String outcome) {
        meters.counter("chan.gateway.claims", "outcome", outcome).increment();
    }

    void waitedForTheListener() {
        meters.counter("chan.gateway.watchtower.waits").increment();
    }

    void failedClaims(long count) {
        failed.set(count);
    }

    void atRisk(long count) {
        atRisk.set(count);
    }

    long atRisk() {
        return atRisk.get();
    }
}
