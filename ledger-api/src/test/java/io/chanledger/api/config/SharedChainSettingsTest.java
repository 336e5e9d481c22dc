package io.chanledger.api.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ClassPathResource;

/**
 * {@code chan.chain.rpc.*} and {@code chan.chain.fees.*} are shared by the listener, the
 * watchtower and the gas station, under these names only.
 */
class SharedChainSettingsTest {

    @Test
    void defaultsAreTenSecondsFiveAttemptsAndAThirtyGweiTipWithoutCap() throws IOException {
        ChainProperties chain = bind(Map.of(), Map.of());
        assertThat(chain.rpc()).isEqualTo(new ChainProperties.Rpc(Duration.ofSeconds(10), 5));
        assertThat(chain.fees()).isEqualTo(new ChainProperties.Fees(BigInteger.valueOf(30_000_000_000L), null));
    }

    @Test
    void theSharedNamesSetTheSharedGroups() throws IOException {
        ChainProperties chain = bind(Map.of("chan.chain.rpc.timeout", "3s", "chan.chain.rpc.attempts", "2",
                "chan.chain.fees.min-priority-fee", "1", "chan.chain.fees.max-fee-cap", "9"), Map.of());
        assertThat(chain.rpc()).isEqualTo(new ChainProperties.Rpc(Duration.ofSeconds(3), 2));
        assertThat(chain.fees()).isEqualTo(new ChainProperties.Fees(BigInteger.ONE, BigInteger.valueOf(9)));
    }

    /** The names these settings had before set nothing: each setting has one name. */
    @Test
    void theWatchtowersTheListenersAndTheGasStationsOldNamesSetNothing() throws IOException {
        ChainProperties chain = bind(Map.of("chan.gateway.watchtower.min-priority-fee", "40000000000",
                "chan.gateway.watchtower.max-fee-cap", "90000000000", "chan.listener.rpc.timeout", "20s",
                "chan.listener.rpc.max-attempts", "7"), Map.of("CHAN_GAS_STATION_MIN_PRIORITY_FEE", "31000000000",
                "CHAN_GAS_STATION_MAX_FEE_CAP", "50000000000", "CHAN_GAS_STATION_RPC_TIMEOUT", "4s",
                "CHAN_GAS_STATION_RPC_ATTEMPTS", "3"));
        assertThat(chain.rpc()).isEqualTo(new ChainProperties.Rpc(Duration.ofSeconds(10), 5));
        assertThat(chain.fees()).isEqualTo(new ChainProperties.Fees(BigInteger.valueOf(30_000_000_000L), null));
    }

    private static ChainProperties bind(Map<String, Object> arguments, Map<String, Object> environment)
            throws IOException {
        StandardEnvironment env = new StandardEnvironment();
        env.getPropertySources().remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
        env.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
        env.getPropertySources().addLast(new MapPropertySource("arguments", arguments));
        env.getPropertySources().addLast(new SystemEnvironmentPropertySource("environment", environment));
        new YamlPropertySourceLoader().load("application.yml", new ClassPathResource("application.yml"))
                .forEach(env.getPropertySources()::addLast);
        return Binder.get(env).bindOrCreate("chan.chain", ChainProperties.class);
    }
}
