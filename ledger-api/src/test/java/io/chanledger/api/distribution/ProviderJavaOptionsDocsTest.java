package io.chanledger.api.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A provider's JVM options are set once, in the distribution's {@code lib/java-options.sh}; the
 * operator's docs quote them whole, and must say what the launcher really passes.
 */
class ProviderJavaOptionsDocsTest {

    private static final Path OPTIONS = Path.of("..", "deploy", "dist", "lib", "java-options.sh");
    private static final List<Path> LAUNCHER_SCRIPTS = List.of(OPTIONS,
            Path.of("..", "deploy", "dist", "lib", "launcher.sh"));
    private static final Pattern VARIABLE = Pattern.compile("\\bCHAN_[A-Z_]+\\b");
    private static final List<Path> DOCS = List.of(Path.of("..", "docs", "operations.md"),
            Path.of("..", "deploy", "dist", "README.md"));

    @Test
    void theDocsQuoteTheProviderLaunchersOptionsAsTheScriptSetsThem() throws IOException {
        String options = ProviderJavaOptions.in(OPTIONS);
        assertThat(options).contains("-Xmx");
        for (Path doc : DOCS) {
            // the docs wrap long code spans over lines
            String text = Files.readString(doc).replaceAll("\\s+", " ");
            assertThat(text).as("%s quotes the provider's JVM options", doc).contains("`" + options + "`");
        }
    }

    /** What the launchers read from the environment (the options, the class cache's folder, …) is told to operators. */
    @Test
    void theDocsNameEveryVariableTheLaunchersRead() throws IOException {
        TreeSet<String> read = new TreeSet<>();
        for (Path script : LAUNCHER_SCRIPTS) {
            Matcher variable = VARIABLE.matcher(Files.readString(script));
            while (variable.find()) {
                read.add(variable.group());
            }
        }
        assertThat(read).as("the variables found, so a parser finding none cannot pass")
                .contains("CHAN_JAVA_OPTS", "CHAN_JVM_CACHE");
        for (Path doc : DOCS) {
            String text = Files.readString(doc);
            assertThat(read).as("%s names the launchers' variables", doc).allSatisfy(name -> assertThat(text).contains(name));
        }
    }
}
