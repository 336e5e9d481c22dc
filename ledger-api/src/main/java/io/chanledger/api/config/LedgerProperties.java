package io.chanledger.api.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Ledger settings: {@code chan.ledger.*}. {@code snapshotThreshold}: events between channel
 * snapshots. {@code maxBodyBytes}: the largest request body the API reads.
 */
@ConfigurationProperties("chan.ledger")
public record LedgerProperties(
        @DefaultValue("250") int snapshotThreshold,
        @DefaultValue("65536") int maxBodyBytes) {
}
