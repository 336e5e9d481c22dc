package io.chanledger.api.marketplace.directory;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * What clients report to the marketplace, as counters:
 * {@code chan.marketplace.feedback{outcome,reason}} (reason {@code none} when not given),
 * {@code chan.marketplace.telemetry.events{event}} (at most {@code telemetry.max-event-names}
 * names per instance, the rest as {@code other}, since clients choose the names),
 * {@code chan.marketplace.probe.alerts{result}} ({@code reachable} / {@code unreachable}: what the
 * probe the alert caused found; {@code not_probed}: the provider was probed for an alert within
 * the cooldown; {@code reported_reachable}; a provider's own request to be checked again:
 * {@code recheck_reachable}, {@code recheck_unreachable}, {@code recheck_not_probed}) and
 * {@code chan.marketplace.reports.refused{endpoint,code}}.
 */
@Component
class ReportMetrics {

    static final String OTHER_EVENT = "other";

    private final MeterRegistry meters;
    private final int maxEventNames;
    private final Set<String> eventNames = ConcurrentHashMap.newKeySet();

    ReportMetrics(MeterRegistry meters, MarketplaceProperties properties) {
        this.meters = meters;
        this.maxEventNames = properties.telemetry().maxEventNames();
    }

    void feedback(String outcome, String reason) {
        meters.counter("chan.marketplace.feedback", "outcome", outcome, "reason", reason == null ? "none" : reason)
                .increment();
    }

    void telemetryEvent(String name) {
        String tag = name;
        if (!eventNames.contains(name)) {
            synchronized (eventNames) {
                if (eventNames.size() < maxEventNames) {
                    eventNames.add(name);
                } else if (!eventNames.contains(name)) {
                    tag = OTHER_EVENT;
                }
            }
        }
        meters.counter("chan.marketplace.telemetry.events", "event", tag).increment();
    }

    void probeAlert(String result) {
        meters.counter("chan.marketplace.probe.alerts", "result", result).increment();
    }

    void refused(String endpoint, String code) {
        meters.counter("chan.marketplace.reports.refused", "endpoint", endpoint, "code", code).increment();
    }
}
