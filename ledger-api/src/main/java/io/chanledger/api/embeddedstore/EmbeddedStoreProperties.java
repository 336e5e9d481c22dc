package io.chanledger.api.embeddedstore;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The default profile's store, a PostgreSQL server the service starts itself: {@code chan.embedded-store.*}.
 * Used only when no {@code spring.datasource.url} is set (the {@code postgres} profile sets one).
 * {@code directory}: the data folder; the server's files are in its {@code postgres} folder and its
 * log in {@code postgres.log}. {@code port}: the loopback port it listens on, 0 for a free one at each
 * start. {@code startupTimeout}: how long a start (with a crash recovery) may take.
 */
@ConfigurationProperties("chan.embedded-store")
public record EmbeddedStoreProperties(
        @DefaultValue("./data") Path directory,
        @DefaultValue("0") int port,
        @DefaultValue("2m") Duration startupTimeout) {

    public EmbeddedStoreProperties {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("chan.embedded-store.port must be 0 (a free port) or a TCP port");
        }
    }
}
