package io.chanledger.api.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * README's map of the code stays true: every package or class its concept table names
 * ({@code io.chanledger.…} or {@code …api.…}) is in a module's main code, and every class the path
 * of a paid request names is a main source file.
 */
class ReadmeCodeReferencesTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern PACKAGE_OR_CLASS = Pattern.compile("`(?:io\\.chanledger\\.|…)([A-Za-z0-9.]+)`");
    private static final Pattern CLASS_NAME = Pattern.compile("`([A-Z][A-Za-z0-9]+)`");

    @Test
    void everyPackageAndClassTheConceptTableNamesExists() throws IOException {
        String table = section("## Where each concept lives", "\n## ");
        List<String> missing = new ArrayList<>();
        Matcher named = PACKAGE_OR_CLASS.matcher(table);
        int found = 0;
        while (named.find()) {
            found++;
            String relative = named.group(1).replace('.', '/');
            if (mainSources().noneMatch(sources -> Files.isDirectory(sources.resolve("io/chanledger/" + relative))
                    || Files.isRegularFile(sources.resolve("io/chanledger/" + relative + ".java")))) {
                missing.add(named.group());
            }
        }
        assertThat(found).isGreaterThan(20);
        assertThat(missing).isEmpty();
    }

    @Test
    void everyClassOnThePaidRequestsPathIsAMainSourceFile() throws IOException {
        String path = section("### The path of a paid request", "\n## ");
        List<String> names = new ArrayList<>();
        Matcher named = CLASS_NAME.matcher(path);
        while (named.find()) {
            names.add(named.group(1));
        }
        assertThat(names).contains("ChatCompletionsController", "Metering", "VoucherAdmission", "ChannelCommits",
                "VoucherCommitBatcher", "ChannelAggregate");
        assertThat(names).allSatisfy(name -> assertThat(mainSourceNamed(name)).as(name).isTrue());
    }

    private static String section(String heading, String next) throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
        int start = readme.indexOf(heading);
        assertThat(start).as(heading).isNotNegative();
        int end = readme.indexOf(next, start + heading.length());
        return readme.substring(start, end < 0 ? readme.length() : end);
    }

    private static Stream<Path> mainSources() throws IOException {
        try (Stream<Path> modules = Files.list(ROOT)) {
            return modules.map(module -> module.resolve("src/main/java")).filter(Files::isDirectory).toList().stream();
        }
    }

    private static boolean mainSourceNamed(String name) {
        try {
            return mainSources().anyMatch(sources -> {
                try (Stream<Path> files = Files.walk(sources)) {
                    return files.anyMatch(file -> file.getFileName().toString().equals(name + ".java"));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
