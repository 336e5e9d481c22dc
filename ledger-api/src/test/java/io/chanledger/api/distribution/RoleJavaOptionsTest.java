package io.chanledger.api.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code chan_role_java_opts} in the distribution's {@code lib/java-options.sh}, the one place the
 * launchers, the local network and the footprint bench choose a role's JVM options, run by POSIX
 * {@code sh} as the launchers run it: a provider's options, the marketplace's none, and
 * {@code CHAN_JAVA_OPTS}, when set, even empty, in place of either.
 */
class RoleJavaOptionsTest {

    private static final Path OPTIONS = Path.of("..", "deploy", "dist", "lib", "java-options.sh");

    @Test
    void aProviderGetsTheProviderOptionsAndAnyOtherRoleTheMarketplaces() throws Exception {
        String provider = ProviderJavaOptions.in(OPTIONS);
        assertThat(optionsOf("provider", null)).isEqualTo(provider);
        assertThat(optionsOf("marketplace", null)).isEmpty();
        assertThat(optionsOf("all", null)).isEmpty();
    }

    @Test
    void chanJavaOptsReplacesARolesOptionsEvenWhenEmpty() throws Exception {
        assertThat(optionsOf("provider", "-Xmx1g")).isEqualTo("-Xmx1g");
        assertThat(optionsOf("marketplace", "-Xmx1g -XX:+UseSerialGC")).isEqualTo("-Xmx1g -XX:+UseSerialGC");
        assertThat(optionsOf("provider", "")).as("set but empty: the JVM's own defaults").isEmpty();
    }

    /** What the function prints for {@code role}, with {@code CHAN_JAVA_OPTS} unset when null. */
    private static String optionsOf(String role, String chanJavaOpts) throws IOException, InterruptedException {
        ProcessBuilder shell = new ProcessBuilder("sh", "-c", ". \"$1\" && chan_role_java_opts \"$2\"", "sh",
                OPTIONS.toString(), role).redirectErrorStream(true);
        Map<String, String> environment = shell.environment();
        environment.remove("CHAN_JAVA_OPTS");
        if (chanJavaOpts != null) {
            environment.put("CHAN_JAVA_OPTS", chanJavaOpts);
        }
        Process process = shell.start();
        String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(printed).isZero();
        return printed;
    }
}
