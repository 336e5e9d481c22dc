package io.chanledger.api.marketplace.gasstation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Status;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.web.MockHttpServletRequest;

class GasStationDisabledTest {

    private final GasStationProperties settings = GasStationFixtures.properties(Duration.ofSeconds(5), Duration.ofMinutes(1));
    private final GasStation station = new DisabledGasStation("no faucet key",
            new GasStationMetrics(new SimpleMeterRegistry()));

    @Test
    void withoutAFaucetEveryRequestIsAnsweredDisabled() {
        GasStationController controller = new GasStationController(station,
                settings.rateLimit().newLimiter(), new ObjectMapper(), settings);
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/gas-station");

        ResponseEntity<Map<String, Object>> reply = controller.request(
                "{\"address\":\"0x5315f457a01c71a5d7ee87da126af57e8cdeda47\"}".getBytes(StandardCharsets.UTF_8), request);

        assertThat(reply.getStatusCode().value()).isEqualTo(503);
        assertThat(reply.getBody()).containsEntry("success", false).containsEntry("code", "gas_station_disabled");
    }

    @Test
    void aDisabledStationDoesNotMakeTheServiceUnhealthy() {
        assertThat(new GasStationHealthIndicator(station, Duration.ZERO).health().getStatus()).isEqualTo(Status.UNKNOWN);
    }
}
