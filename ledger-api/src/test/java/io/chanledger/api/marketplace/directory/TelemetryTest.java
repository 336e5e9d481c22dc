package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Collections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;

/** {@code POST /api/telemetry}: events are counted, nothing is kept, and every bad post is a 4xx. */
class TelemetryTest extends LedgerIntegrationTest {

    @Autowired
    MeterRegistry meters;

    private Http.Reply telemetry(String body) {
        return Reports.post(baseUrl() + "/api/telemetry", body);
    }

    private double events(String name) {
        Counter counter = meters.find("chan.marketplace.telemetry.events").tag("event", name).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void eventsAreCountedUnderTheirNameInEveryShapeClientsSend() {
        double selected = events("provider_selected");
        double paid = events("voucher.signed");
        double unnamed = events(ClientTelemetry.UNNAMED);

        Http.Reply one = telemetry("{\"event\":\"provider_selected\",\"providerId\":\"prov-1\",\"latencyMs\":120}");
        Http.Reply many = telemetry("[{\"type\":\"voucher.signed\"},{\"name\":\"voucher.signed\"},{\"latencyMs\":3}]");
        Http.Reply wrapped = Reports.post(baseUrl() + "/api/telemetry", Reports.newClient(), "text/plain;charset=UTF-8",
                "{\"events\":[{\"event\":\"provider_selected\"},{\"event\":\"ops@agent.example\"}]}");

        assertThat(one.status()).as(one.body()).isEqualTo(202);
        assertThat(one.json().path("accepted").asInt()).isEqualTo(1);
        assertThat(many.status()).isEqualTo(202);
        assertThat(many.json().path("accepted").asInt()).isEqualTo(3);
        assertThat(wrapped.status()).as("a beacon's text/plain body").isEqualTo(202);
        assertThat(events("provider_selected")).isEqualTo(selected + 2);
        assertThat(events("voucher.signed")).isEqualTo(paid + 2);
        assertThat(events(ClientTelemetry.UNNAMED)).as("no name, and a name that is not an identifier")
                .isEqualTo(unnamed + 2);
        assertThat(meters.find("chan.marketplace.telemetry.events").tag("event", "ops@agent.example").counter())
                .isNull();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "not JSON|`event=started`|malformed_body",
            "empty|``|malformed_body",
            "trailing garbage|`{\"event\":\"a\"} x`|malformed_body",
            "a number|`42`|invalid_telemetry",
            "an empty array|`[]`|invalid_telemetry",
            "events that are not objects|`[\"started\",\"stopped\"]`|invalid_telemetry",
            "an events member that is empty|`{\"events\":[]}`|invalid_telemetry"})
    void aBadPostIsRefusedWithA400AndAMessage(String what, String body, String code) {
        Reports.assertRefused(telemetry(body == null ? "" : body), 400, code);
    }

    @Test
    void moreEventsThanOneBodyTakesAreRefused() {
        String body = "[" + String.join(",", Collections.nCopies(101, "{\"event\":\"x\"}")) + "]";

        JsonNode problem = Reports.assertRefused(telemetry(body), 400, "invalid_telemetry");

        assertThat(problem.path("error").asText()).contains("at most 100");
    }

    @Test
    void aBodyAboveTheLimitIsRefusedUnread() {
        String body = "{\"event\":\"big\",\"padding\":\"" + "x".repeat(20_000) + "\"}";

        JsonNode problem = Reports.assertRefused(telemetry(body), 413, "body_too_large");

        assertThat(problem.path("error").asText()).contains("16384 bytes");
    }

    @Test
    void eachClientAddressHasItsOwnLimit() {
        String client = Reports.newClient();
        for (int i = 0; i < 5; i++) {
            assertThat(Reports.post(baseUrl() + "/api/telemetry", client, "application/json", "{\"event\":\"tick\"}")
                    .status()).isEqualTo(202);
        }

        Http.Reply limited = Reports.post(baseUrl() + "/api/telemetry", client, "application/json", "{\"event\":\"tick\"}");

        Reports.assertRefused(limited, 429, "rate_limited");
        assertThat(limited.raw().headers().firstValue("Retry-After")).isPresent();
        assertThat(telemetry("{\"event\":\"tick\"}").status()).as("another client").isEqualTo(202);
    }
}
