package io.chanledger.api.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A provider's JVM options are set once, in the distribution's {@code lib/java-options.sh}; the
 * operator's docs quote them whole, and must say what the launcher really passes.
 */
class ProviderJavaOptionsDocsTest {

    private static final Path OPTIONS = Path.of("..", "deploy", "dist", "lib", "java-options.sh");
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
}
