package io.chanledger.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chanledger.api.LedgerApplication;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

class UnresolvedPlaceholdersTest {

    /** A variable no machine sets. */
    private static final String UNSET = "CHAN_NEVER_SET_SCRAPER_API_KEY";

    /** An environment with these variables and one configuration file holding {@code settings}. */
    private static StandardEnvironment environment(Map<String, Object> variables, Map<String, Object> settings) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        variables));
        environment.getPropertySources().addLast(new MapPropertySource("Config resource 'provider.yml'", settings));
        return environment;
    }

    @Test
    void refusesEverySecretOrAddressLeftWithAnUnsetVariableNamingTheSettingAndTheVariable() {
        for (String setting : new String[]{"chan.gateway.upstreams[0].api-key", "chan.gateway.upstreams[4].api-key",
                "chan.gateway.provider-key", "chan.gateway.provider-key-file", "chan.gas-station.faucet-key",
                "chan.admin.token", "chan.chain.rpc-url", "chan.gateway.watchtower.rpc-url",
                "chan.gateway.upstreams[3].base-url", "chan.gateway.upstreams[2].url", "chan.provider.marketplace-url",
                "chan.gateway.upstreams[1].headers.x-api-key", "spring.datasource.url",
                "spring.datasource.password"}) {
            StandardEnvironment environment = environment(Map.of(), Map.of(setting, "${" + UNSET + "}"));

            assertThatThrownBy(() -> UnresolvedPlaceholders.check(environment)).as(setting)
                    .isInstanceOf(UnresolvedPlaceholderException.class)
                    .hasMessage(setting + " is ${" + UNSET + "}, but " + UNSET + " is not set: set the environment"
                            + " variable " + UNSET + " (or the setting of that name), or remove " + setting + ".");
        }
    }

    @Test
    void findsAPlaceholderInsideALongerValueAndNamesEverySettingItFinds() {
        StandardEnvironment environment = environment(Map.of(), Map.of(
                "chan.chain.rpc-url", "https://polygon.example/v2/${" + UNSET + "}",
                "chan.admin.token", "${CHAN_NEVER_SET_ADMIN_TOKEN}"));

        assertThatThrownBy(() -> UnresolvedPlaceholders.check(environment))
                .hasMessageContaining("chan.chain.rpc-url is ${" + UNSET + "}")
                .hasMessageContaining("chan.admin.token is ${CHAN_NEVER_SET_ADMIN_TOKEN}")
                .hasMessageNotContaining("polygon.example");
    }

    @Test
    void letsThroughASetVariableADefaultAndOtherTextHoldingADollarBrace() {
        StandardEnvironment environment = environment(Map.of(UNSET, "sk-test"), Map.of(
                "chan.gateway.upstreams[0].api-key", "${" + UNSET + "}",
                "chan.chain.rpc-url", "${CHAN_NEVER_SET_RPC_URL:}",
                "chan.gateway.models[0].description", "prints ${HOME} as it is",
                "chan.admin.token", "plain-token"));

        assertThatCode(() -> UnresolvedPlaceholders.check(environment)).doesNotThrowAnyException();
    }

    @Test
    void aSettingSetElsewhereWithoutPlaceholderIsTheOneThatCounts() {
        StandardEnvironment environment = environment(Map.of("CHAN_ADMIN_TOKEN", "from-the-environment"),
                Map.of("chan.admin.token", "${" + UNSET + "}"));

        assertThatCode(() -> UnresolvedPlaceholders.check(environment)).doesNotThrowAnyException();
    }

    @Test
    void theServiceDoesNotStartWithAnUpstreamKeyLeftAsItsPlaceholder(@TempDir Path folder) throws Exception {
        Path file = Files.writeString(folder.resolve("provider.yml"), """
                chan:
                  gateway:
                    upstreams:
                      - name: scraper
                        url: https://scraper.example/run
                        api-key: ${%s}
                """.formatted(UNSET));

        assertThatThrownBy(() -> new SpringApplicationBuilder(LedgerApplication.class).run(
                "--spring.config.additional-location=file:" + file, "--chan.role=provider", "--server.port=0",
                "--spring.datasource.url=jdbc:h2:mem:unresolved-placeholder"))
                .isInstanceOf(UnresolvedPlaceholderException.class)
                .hasMessage(UnresolvedPlaceholders.line("chan.gateway.upstreams[0].api-key", UNSET));
        assertThat(UnresolvedPlaceholders.line("chan.gateway.upstreams[0].api-key", UNSET)).doesNotContain("\n");
    }
}
