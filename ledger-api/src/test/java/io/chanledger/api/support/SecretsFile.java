package io.chanledger.api.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * Secret settings for an application a test starts itself, given the way a deployment may give
 * them: in a configuration file (the service refuses them on its command line).
 */
public final class SecretsFile {

    private SecretsFile() {
    }

    /** Writes {@code secrets} to a properties file in {@code directory}; returns the argument that adds it. */
    public static String argument(Path directory, Map<String, String> secrets) {
        Path file = directory.resolve("secrets.properties");
        Properties properties = new Properties();
        properties.putAll(secrets);
        try (Writer out = Files.newBufferedWriter(file)) {
            properties.store(out, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return "--spring.config.additional-location=file:" + file.toAbsolutePath();
    }
}
