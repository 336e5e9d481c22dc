package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class ReportMetricsTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final ReportMetrics metrics = new ReportMetrics(meters, new Binder(new MapConfigurationPropertySource(
            Map.of("chan.marketplace.telemetry.max-event-names", "2")))
            .bindOrCreate("chan.marketplace", Bindable.of(MarketplaceProperties.class)));

    private double events(String name) {
        var counter = meters.find("chan.marketplace.telemetry.events").tag("event", name).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void clientsCannotGrowTheNumberOfTelemetrySeriesPastTheLimit() {
        metrics.telemetryEvent("started");
        metrics.telemetryEvent("paid");
        metrics.telemetryEvent("started");
        metrics.telemetryEvent("invented-1");
        metrics.telemetryEvent("invented-2");

        assertThat(events("started")).isEqualTo(2);
        assertThat(events("paid")).isEqualTo(1);
        assertThat(events(ReportMetrics.OTHER_EVENT)).isEqualTo(2);
        assertThat(meters.find("chan.marketplace.telemetry.events").counters()).hasSize(3);
    }
}
