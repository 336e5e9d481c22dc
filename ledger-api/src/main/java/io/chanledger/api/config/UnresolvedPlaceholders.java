package io.chanledger.api.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;

/**
 * Refuses to start when a secret or an address still holds a placeholder nothing resolved: Spring
 * binds {@code api-key: ${SCRAPER_API_KEY}} with the variable unset as the text
 * {@code ${SCRAPER_API_KEY}}, which would then be sent upstream as the key, or tried as a node's
 * URL. Looks at the service's own settings and the database's whose last part names a key, token,
 * password, secret, user, file or URL, and at the headers of named upstreams; other text (a model's
 * description) may hold {@code ${} as it likes. A placeholder with a default
 * ({@code ${CHAN_RPC_URL:}}) always resolves.
 */
public class UnresolvedPlaceholders implements EnvironmentPostProcessor, Ordered {

    private static final Pattern CHECKED_PART = Pattern.compile("key|token|password|secret|user|file|url|uri");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}:]*)(?::[^}]*)?}");

    /** Last, as {@link SecretSettingSources}: every file and profile has become a property source. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        check(environment);
    }

    static void check(ConfigurableEnvironment environment) {
        PropertySourcesPlaceholdersResolver resolver = new PropertySourcesPlaceholdersResolver(environment);
        Map<String, String> unresolved = new LinkedHashMap<>();
        Set<ConfigurationPropertyName> seen = new HashSet<>();
        for (PropertySource<?> source : environment.getPropertySources()) {
            if (!(ConfigurationPropertySource.from(source) instanceof IterableConfigurationPropertySource properties)) {
                continue;
            }
            for (ConfigurationPropertyName name : properties) {
                // the first source holding a setting is the one that sets it
                if (!seen.add(name) || !checked(name)) {
                    continue;
                }
                ConfigurationProperty property = properties.getConfigurationProperty(name);
                if (property != null && property.getValue() instanceof CharSequence value) {
                    Object resolved = resolver.resolvePlaceholders(value.toString());
                    Matcher placeholder = PLACEHOLDER.matcher(String.valueOf(resolved));
                    if (placeholder.find()) {
                        unresolved.put(name.toString(), placeholder.group(1).strip());
                    }
                }
            }
        }
        if (!unresolved.isEmpty()) {
            List<String> lines = new ArrayList<>();
            unresolved.forEach((setting, variable) -> lines.add(line(setting, variable)));
            throw new UnresolvedPlaceholderException(lines);
        }
    }

    /** What is wrong with one setting, and what to do, in one line; the value itself is not repeated. */
    static String line(String setting, String variable) {
        return setting + " is ${" + variable + "}, but " + variable + " is not set: set the environment variable "
                + variable + " (or the setting of that name), or remove " + setting + ".";
    }

    static boolean checked(ConfigurationPropertyName name) {
        String setting = name.toString();
        if (!setting.startsWith("chan.") && !setting.startsWith("spring.datasource.")) {
            return false;
        }
        int last = name.getNumberOfElements() - 1;
        boolean header = setting.startsWith("chan.gateway.") && last > 0
                && name.getElement(last - 1, Form.DASHED).equals("headers");
        return header || CHECKED_PART.matcher(name.getElement(last, Form.DASHED)).find();
    }
}
