package io.chanledger.api.ledger.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chanledger.chain.ingest.LagLimits;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The listener's lag settings, bound as the service binds them. */
class ListenerPropertiesTest {

    private static ListenerProperties bind(Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(settings)).bindOrCreate("chan.listener",
                ListenerProperties.class);
    }

    @Test
    void theLagLimitsDefaultAboveAPolygonListenersNormalLag() {
        ListenerProperties listener = bind(Map.of());

        assertThat(listener.lag().limits()).isEqualTo(new LagLimits(128, 300));
        assertThat(listener.lag().grace()).hasMinutes(2);
        assertThat(listener.lag().maxBlocks()).isGreaterThan(listener.depth());
    }

    @Test
    void aDepthAtOrAboveTheBlockLimitIsRefusedAtStartNamingBothSettings() {
        assertThatThrownBy(() -> bind(Map.of("chan.listener.finality", "depth", "chan.listener.depth", "128")))
                .isInstanceOf(BindException.class)
                .rootCause().hasMessageContaining("chan.listener.lag.max-blocks (128) must be above chan.listener.depth (128)");
        assertThat(bind(Map.of("chan.listener.finality", "depth", "chan.listener.depth", "200",
                "chan.listener.lag.max-blocks", "256")).lag().maxBlocks()).isEqualTo(256);
    }

    @Test
    void aLagLimitOfNothingIsRefused() {
        assertThatThrownBy(() -> bind(Map.of("chan.listener.lag.max-chain-time", "0s")))
                .isInstanceOf(BindException.class).rootCause().hasMessageContaining("chan.listener.lag needs");
    }
}
