package io.chanledger.api.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Ledger settings: {@code chan.ledger.*}. {@code snapshotThreshold}: events between channel
 * snapshots. {@code maxBodyBytes}: the largest request body the API reads. {@code groupCommit}:
 * concurrent vouchers share database commits ({@code groupCommitWorkers} committers, at most
 * {@code groupCommitMaxBatch} vouchers a commit); off, each voucher commits on its own.
 * {@code aggregateCacheSize}: channels kept in memory between commands. {@code eventFetchSize}:
 * events the event store reads per query when a processor streams it (a replay reads them all).
 */
@ConfigurationProperties("chan.ledger")
public record LedgerProperties(
        @DefaultValue("250") int snapshotThreshold,
        @DefaultValue("65536") int maxBodyBytes,
        @DefaultValue("true") boolean groupCommit,
        @DefaultValue("2") int groupCommitWorkers,
        @DefaultValue("256") int groupCommitMaxBatch,
        @DefaultValue("100000") int aggregateCacheSize,
        @DefaultValue("1000") int eventFetchSize) {

    public LedgerProperties {
        if (groupCommitWorkers < 1 || groupCommitMaxBatch < 1) {
            throw new IllegalArgumentException("chan.ledger.group-commit-workers and -max-batch must be at least 1");
        }
        if (eventFetchSize < 1) {
            throw new IllegalArgumentException("chan.ledger.event-fetch-size must be at least 1");
        }
    }
}
