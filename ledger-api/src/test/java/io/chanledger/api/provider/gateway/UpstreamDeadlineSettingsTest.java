package io.chanledger.api.provider.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * An OpenAI-compatible upstream's deadlines as configured: bound the way Spring binds them, and
 * checked at start-up against the hold a request keeps on its channel, which must not lapse
 * while the request may still run.
 */
class UpstreamDeadlineSettingsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A gateway selling one chat model of an openai upstream, {@code chat}, with {@code overrides} applied. */
    private static Upstreams start(Map<String, String> overrides) {
        Map<String, String> settings = new HashMap<>(Map.of(
                "chan.gateway.models[0].id", "m",
                "chan.gateway.models[0].input-per-1k-tokens", "0.001",
                "chan.gateway.models[0].output-per-1k-tokens", "0.002",
                "chan.gateway.models[0].upstream", "chat",
                "chan.gateway.upstreams[0].name", "chat",
                "chan.gateway.upstreams[0].kind", "openai",
                "chan.gateway.upstreams[0].base-url", "http://127.0.0.1:9/v1"));
        settings.putAll(overrides);
        GatewayProperties properties = new Binder(new MapConfigurationPropertySource(settings))
                .bindOrCreate("chan.gateway", Bindable.of(GatewayProperties.class));
        return Upstreams.of(properties, PriceList.of(properties, 0, JSON), JSON, Clock.systemUTC());
    }

    @Test
    void theDefaultsEndEveryCallWellWithinTheDefaultHold() {
        Upstreams upstreams = start(Map.of());
        OpenAiUpstream.Deadlines deadlines = ((OpenAiUpstream) upstreams.chat(modelM())).deadlines();

        assertThat(deadlines).isEqualTo(new OpenAiUpstream.Deadlines(Duration.ofSeconds(30), Duration.ofSeconds(120),
                Duration.ofSeconds(60), Duration.ofMinutes(10)));
        assertThat(deadlines.longest().plus(Upstreams.SETTLE_MARGIN)).isLessThan(Duration.ofMinutes(15));
    }

    @Test
    void aNamedOpenAiUpstreamTakesItsOwnDeadlines() {
        Upstreams upstreams = start(Map.of(
                "chan.gateway.models[0].upstream", "fast",
                "chan.gateway.upstreams[0].name", "fast",
                "chan.gateway.upstreams[0].kind", "openai",
                "chan.gateway.upstreams[0].base-url", "http://127.0.0.1:9/v1",
                "chan.gateway.upstreams[0].timeout", "20s",
                "chan.gateway.upstreams[0].stream-first-byte-timeout", "5s",
                "chan.gateway.upstreams[0].stream-idle-timeout", "2s",
                "chan.gateway.upstreams[0].stream-timeout", "3m"));

        assertThat(((OpenAiUpstream) upstreams.chat(modelM())).deadlines()).isEqualTo(new OpenAiUpstream.Deadlines(
                Duration.ofSeconds(20), Duration.ofSeconds(5), Duration.ofSeconds(2), Duration.ofMinutes(3)));
    }

    @Test
    void aHoldThatCouldLapseWhileACallStillRunsStopsTheStart() {
        assertThatThrownBy(() -> start(Map.of("chan.gateway.hold-ttl", "10m")))
                .as("the default whole-stream limit, 10 minutes, plus the settling margin")
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("chan.gateway.hold-ttl (PT10M) must exceed the longest call of "
                        + "chan.gateway.upstreams[chat] (PT10M)");
        assertThatThrownBy(() -> start(Map.of("chan.gateway.upstreams[0].timeout", "20m")))
                .hasMessageContaining("chan.gateway.upstreams[chat] (PT20M)");
        assertThatThrownBy(() -> start(Map.of("chan.gateway.hold-ttl", "1m",
                "chan.gateway.upstreams[0].kind", "echo",
                "chan.gateway.upstreams[1].name", "svc",
                "chan.gateway.upstreams[1].url", "http://127.0.0.1:9/svc",
                "chan.gateway.upstreams[1].timeout", "30s")))
                .as("an http upstream's timeout counts too")
                .hasMessageContaining("chan.gateway.upstreams[svc] (PT30S)");

        assertThat(start(Map.of("chan.gateway.hold-ttl", "10m", "chan.gateway.upstreams[0].stream-timeout", "9m")))
                .isNotNull();
        assertThat(start(Map.of("chan.gateway.hold-ttl", "1m", "chan.gateway.upstreams[0].kind", "echo")))
                .as("the echo backend runs in process and ends on its own").isNotNull();
    }

    @Test
    void aDeadlineOfZeroStopsTheStart() {
        assertThatThrownBy(() -> start(Map.of("chan.gateway.upstreams[0].stream-idle-timeout", "0s")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("chan.gateway.upstreams[chat]: timeout, stream-first-byte-timeout, "
                        + "stream-idle-timeout and stream-timeout must be above 0");
    }

    /** Each model names its upstream: there is no default one to fall back to. */
    @Test
    void aModelThatNamesNoUpstreamStopsTheStart() {
        assertThatThrownBy(() -> start(Map.of("chan.gateway.models[0].upstream", "")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("chan.gateway.models[m].upstream: name the one of chan.gateway.upstreams");
        assertThatThrownBy(() -> start(Map.of("chan.gateway.models[0].upstream", "elsewhere")))
                .hasMessageContaining("no upstream elsewhere in chan.gateway.upstreams");
    }

    private static PriceList.ModelRate modelM() {
        Map<String, String> settings = Map.of("chan.gateway.models[0].id", "m",
                "chan.gateway.models[0].input-per-1k-tokens", "0.001",
                "chan.gateway.models[0].output-per-1k-tokens", "0.002");
        GatewayProperties properties = new Binder(new MapConfigurationPropertySource(settings))
                .bindOrCreate("chan.gateway", Bindable.of(GatewayProperties.class));
        return PriceList.of(properties, 0, JSON).model("m").orElseThrow();
    }
}
