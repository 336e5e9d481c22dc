package io.chanledger.api.config;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.Ordered;
import org.springframework.core.env.CommandLinePropertySource;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.util.ObjectUtils;

/**
 * Refuses to start when a secret setting is given on the command line, as {@code --name=value} or
 * {@code -Dname=value}: every user of the machine can read a process's arguments ({@code ps}), so
 * secrets come from the environment or a file only. Looks at every spelling Spring would bind
 * ({@code providerKey}, {@code provider_key}) and at {@code spring.application.json} given on the
 * command line. An empty value is no secret and is let through (it switches a feature off).
 */
public class SecretSettingSources implements EnvironmentPostProcessor, Ordered {

    /** A secret setting, the environment variable that sets it, and its file setting if it has one. */
    record Secret(String property, String environmentVariable, String fileProperty) {

        /** Where to give it instead. */
        String advice() {
            return "set the environment variable " + environmentVariable + " instead"
                    + (fileProperty == null ? ", or put it in a configuration file only the service can read"
                    : ", or name a file holding it with " + fileProperty + " ("
                    + environmentVariable + "_FILE)");
        }
    }

    /** How many of the named upstreams ({@code chan.gateway.upstreams[i].api-key}) are checked. */
    static final int NAMED_UPSTREAMS_CHECKED = 32;

    static final List<Secret> SECRETS = secrets();

    private static List<Secret> secrets() {
        List<Secret> secrets = new ArrayList<>(List.of(
                new Secret("chan.gateway.provider-key", "CHAN_GATEWAY_PROVIDER_KEY", "chan.gateway.provider-key-file"),
                new Secret("chan.gas-station.faucet-key", "CHAN_GAS_STATION_FAUCET_KEY",
                        "chan.gas-station.faucet-key-file"),
                new Secret("chan.admin.token", "CHAN_ADMIN_TOKEN", null)));
        for (int i = 0; i < NAMED_UPSTREAMS_CHECKED; i++) {
            // the variable Spring binds to this setting (a dash inside a name cannot be spelled in one)
            secrets.add(new Secret("chan.gateway.upstreams[" + i + "].api-key", "CHAN_GATEWAY_UPSTREAMS_" + i
                    + "_APIKEY", null));
        }
        return List.copyOf(secrets);
    }

    private static final Set<String> COMMAND_LINE_SOURCES = Set.of(
            CommandLinePropertySource.COMMAND_LINE_PROPERTY_SOURCE_NAME,
            StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);

    /** Last, once {@code spring.application.json} has become a property source of its own. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        check(environment);
    }

    static void check(ConfigurableEnvironment environment) {
        Set<Secret> onCommandLine = new LinkedHashSet<>();
        for (PropertySource<?> source : environment.getPropertySources()) {
            ConfigurationPropertySource properties = ConfigurationPropertySource.from(source);
            if (properties == null) {
                continue;
            }
            for (Secret secret : SECRETS) {
                ConfigurationProperty given = properties.getConfigurationProperty(
                        ConfigurationPropertyName.of(secret.property()));
                if (given != null && !ObjectUtils.isEmpty(given.getValue())
                        && fromCommandLine(source, given.getOrigin())) {
                    onCommandLine.add(secret);
                }
            }
        }
        if (!onCommandLine.isEmpty()) {
            throw new SecretOnCommandLineException(new ArrayList<>(onCommandLine));
        }
    }

    /** The source itself, or the one it was read from ({@code spring.application.json}: its origin). */
    private static boolean fromCommandLine(PropertySource<?> source, Origin origin) {
        if (COMMAND_LINE_SOURCES.contains(source.getName())) {
            return true;
        }
        for (Origin from = origin; from != null; from = from.getParent()) {
            if (from instanceof PropertySourceOrigin read
                    && COMMAND_LINE_SOURCES.contains(read.getPropertySource().getName())) {
                return true;
            }
        }
        return false;
    }
}
