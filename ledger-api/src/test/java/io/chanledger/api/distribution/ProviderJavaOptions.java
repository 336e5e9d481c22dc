package io.chanledger.api.distribution;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A provider's JVM options as the distribution's {@code lib/java-options.sh} sets them, their one definition. */
final class ProviderJavaOptions {

    private static final Pattern ASSIGNMENT = Pattern.compile("(?m)^chan_provider_java_opts=\"([^\"]+)\"$");

    private ProviderJavaOptions() {
    }

    /** The options the script sets, as one line; fails when the script sets none. */
    static String in(Path script) throws IOException {
        Matcher assignment = ASSIGNMENT.matcher(Files.readString(script));
        if (!assignment.find()) {
            throw new AssertionError(script + " sets no chan_provider_java_opts");
        }
        return assignment.group(1);
    }
}
