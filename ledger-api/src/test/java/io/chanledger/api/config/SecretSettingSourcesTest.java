package io.chanledger.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chanledger.api.LedgerApplication;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.env.SpringApplicationJsonEnvironmentPostProcessor;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.SimpleCommandLinePropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

class SecretSettingSourcesTest {

    private static final String KEY = "0x715a48a4b5929015260802e728408f658958759273c7dea32bb2b0540ca13e2e";

    /** An environment as Spring Boot builds it, with these arguments and system properties only. */
    private static StandardEnvironment environment(List<String> arguments, Map<String, Object> systemProperties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME,
                new MapPropertySource(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME, systemProperties));
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.of()));
        environment.getPropertySources().addFirst(new SimpleCommandLinePropertySource(arguments.toArray(String[]::new)));
        return environment;
    }

    @Test
    void refusesEverySecretSettingGivenAsACommandLineArgument() {
        for (SecretSettingSources.Secret secret : SecretSettingSources.SECRETS) {
            StandardEnvironment environment = environment(List.of("--" + secret.property() + "=" + KEY), Map.of());

            assertThatThrownBy(() -> SecretSettingSources.check(environment)).as(secret.property())
                    .isInstanceOf(SecretOnCommandLineException.class)
                    .hasMessageContaining(secret.property() + " is a secret and was given on the command line")
                    .hasMessageContaining("set the environment variable " + secret.environmentVariable())
                    .hasMessageNotContaining(KEY);
        }
    }

    @Test
    void refusesASecretGivenAsASystemProperty() {
        StandardEnvironment environment = environment(List.of(), Map.of("chan.gas-station.faucet-key", KEY));

        assertThatThrownBy(() -> SecretSettingSources.check(environment))
                .hasMessageContaining("chan.gas-station.faucet-key is a secret")
                .hasMessageContaining("CHAN_GAS_STATION_FAUCET_KEY")
                .hasMessageContaining("chan.gas-station.faucet-key-file (CHAN_GAS_STATION_FAUCET_KEY_FILE)");
    }

    @Test
    void refusesTheOtherSpellingsSpringWouldBind() {
        for (String argument : new String[]{"--chan.gateway.providerKey=" + KEY, "--chan.gateway.provider_key=" + KEY,
                "--chan.gateway.upstreams[3].apiKey=sk-test"}) {
            assertThatThrownBy(() -> SecretSettingSources.check(environment(List.of(argument), Map.of())))
                    .as(argument).isInstanceOf(SecretOnCommandLineException.class);
        }
    }

    @Test
    void refusesASecretInsideSpringApplicationJsonOnTheCommandLine() {
        StandardEnvironment environment = environment(
                List.of("--spring.application.json={\"chan\":{\"admin\":{\"token\":\"hunter2\"}}}"), Map.of());
        new SpringApplicationJsonEnvironmentPostProcessor().postProcessEnvironment(environment, null);

        assertThatThrownBy(() -> SecretSettingSources.check(environment))
                .hasMessageContaining("chan.admin.token is a secret").hasMessageNotContaining("hunter2");
    }

    @Test
    void namesEverySecretItFinds() {
        StandardEnvironment environment = environment(List.of("--chan.admin.token=t", "--chan.gateway.provider-key=" + KEY),
                Map.of());

        assertThatThrownBy(() -> SecretSettingSources.check(environment))
                .hasMessageContaining("chan.gateway.provider-key, chan.admin.token are secrets and were given");
    }

    @Test
    void takesSecretsFromTheEnvironmentAndOtherSettingsFromTheCommandLine() {
        StandardEnvironment environment = environment(List.of("--chan.gateway.name=Example", "--chan.admin.token=",
                "--chan.gateway.provider-key-file=/run/secrets/provider-key"), Map.of("chan.gateway.name", "Example"));
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        Map.of("CHAN_GATEWAY_PROVIDER_KEY", KEY, "CHAN_ADMIN_TOKEN", "t")));
        environment.getPropertySources().addLast(new MapPropertySource("Config resource 'application-secrets.yml'",
                Map.of("chan.gateway.upstreams[0].api-key", "sk-test")));

        assertThatCode(() -> SecretSettingSources.check(environment)).doesNotThrowAnyException();
    }

    @Test
    void theServiceDoesNotStartWithAKeyOnItsCommandLineAndSaysWhatToDo() throws Exception {
        Process argument = start(List.of(), List.of("--chan.gateway.provider-key=" + KEY));
        Process property = start(List.of("-Dchan.admin.token=hunter2"), List.of());

        String argumentOutput = finish(argument);
        assertThat(argument.exitValue()).as(argumentOutput).isNotZero();
        assertThat(argumentOutput).contains("APPLICATION FAILED TO START",
                "chan.gateway.provider-key is a secret and was given on the command line",
                "Remove chan.gateway.provider-key from the command line and set the environment variable "
                        + "CHAN_GATEWAY_PROVIDER_KEY instead, or name a file holding it with chan.gateway.provider-key-file")
                .doesNotContain(KEY.substring(2));
        String propertyOutput = finish(property);
        assertThat(property.exitValue()).as(propertyOutput).isNotZero();
        assertThat(propertyOutput).contains("chan.admin.token is a secret", "CHAN_ADMIN_TOKEN").doesNotContain("hunter2");
    }

    /** The service's own main method in a JVM of its own, as an operator would start it. */
    private static Process start(List<String> jvmOptions, List<String> arguments) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), LedgerApplication.class.getName()));
        command.addAll(arguments);
        // were the check to let it start, it would start harmlessly: any port, a database in memory
        command.addAll(List.of("--server.port=0", "--spring.datasource.url=jdbc:h2:mem:secret-check"));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    private static String finish(Process process) throws Exception {
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the service did not stop: " + output);
        }
        return output;
    }
}
