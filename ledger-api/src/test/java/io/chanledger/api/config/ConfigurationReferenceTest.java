package io.chanledger.api.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.type.filter.AnnotationTypeFilter;

/**
 * docs/configuration.md is the one configuration reference: every setting of every
 * {@code @ConfigurationProperties} record is listed there by its full name.
 */
class ConfigurationReferenceTest {

    private static final Path REFERENCE = Path.of("..", "docs", "configuration.md");

    @Test
    void everySettingOfEverySettingsRecordIsInTheConfigurationReference() throws IOException {
        String reference = Files.readString(REFERENCE);
        List<String> settings = allSettings();
        assertThat(settings).hasSizeGreaterThan(50);
        assertThat(settings).allSatisfy(name -> assertThat(reference)
                .as("docs/configuration.md lists %s", name).contains("`" + name + (name.endsWith("[i]") ? "" : "`")));
    }

    @Test
    void theReferenceNamesNoSettingThatNoLongerExists() throws IOException {
        String reference = Files.readString(REFERENCE);
        List<String> settings = allSettings();
        // every `chan.…` name in a table row's first column is a setting of some record
        List<String> listed = new ArrayList<>();
        boolean settingsTable = false;
        for (String line : reference.split("\n")) {
            if (!line.startsWith("| ") || line.startsWith("| setting")) {
                settingsTable = line.startsWith("| setting") || (settingsTable && line.startsWith("|"));
                continue;
            }
            if (!settingsTable) {
                continue;
            }
            String first = line.substring(2, line.indexOf(" |", 2));
            java.util.regex.Matcher names = java.util.regex.Pattern.compile("`(chan\\.[a-z0-9.\\[\\]-]+)`").matcher(first);
            while (names.find()) {
                String name = names.group(1);
                listed.add(name.contains("[i]") ? name.substring(0, name.indexOf("[i]") + 3) : name);
            }
        }
        assertThat(listed).isNotEmpty().allSatisfy(name -> assertThat(settings)
                .as("%s in docs/configuration.md is a setting", name).contains(name));
    }

    private static List<String> allSettings() {
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(new AnnotationTypeFilter(ConfigurationProperties.class));
        List<String> names = new ArrayList<>();
        for (BeanDefinition candidate : scanner.findCandidateComponents("io.chanledger")) {
            Class<?> type = load(candidate.getBeanClassName());
            if (!type.isRecord()) {
                continue;
            }
            String prefix = type.getAnnotation(ConfigurationProperties.class).value();
            collect(prefix, type, names);
        }
        return names;
    }

    private static void collect(String prefix, Class<?> record, List<String> names) {
        for (RecordComponent component : record.getRecordComponents()) {
            String name = prefix + "." + dashed(component.getName());
            Class<?> type = component.getType();
            if (type.isRecord()) {
                collect(name, type, names);
            } else if (List.class.isAssignableFrom(type) && elementIsRecord(component.getGenericType())) {
                names.add(name + "[i]");
            } else if (!Map.class.isAssignableFrom(type)) {
                names.add(name);
            }
        }
    }

    private static boolean elementIsRecord(Type generic) {
        return generic instanceof ParameterizedType parameterized
                && parameterized.getActualTypeArguments()[0] instanceof Class<?> element && element.isRecord();
    }

    private static String dashed(String camel) {
        StringBuilder dashed = new StringBuilder();
        for (char c : camel.toCharArray()) {
            if (Character.isUpperCase(c)) {
                dashed.append('-').append(Character.toLowerCase(c));
            } else {
                dashed.append(c);
            }
        }
        return dashed.toString();
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
