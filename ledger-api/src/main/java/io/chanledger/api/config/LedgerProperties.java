package io.chanledger.api.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Ledger settings: {@code chan.ledger.*}. {@code snapshots}: events between snapshots of each
 * aggregate kind. {@code maxBodyBytes}: the largest request body the API reads. {@code groupCommit}:
 * concurrent vouchers share database commits; off, each voucher commits on its own.
 */
@ConfigurationProperties("chan.ledger")
public record LedgerProperties(
        @DefaultValue Snapshots snapshots,
        @DefaultValue("65536") int maxBodyBytes,
        @DefaultValue("true") boolean groupCommit) {

    /** Committer threads of the group commit (BENCHMARKS.md, "Voucher admission"). */
    public static final int GROUP_COMMIT_WORKERS = 2;

    /** Vouchers one group commit takes at most (BENCHMARKS.md, "Voucher admission"). */
    public static final int GROUP_COMMIT_MAX_BATCH = 256;

    /**
     * Channels the bounded aggregate cache keeps between commands (BENCHMARKS.md, "Voucher admission":
     * a strong, bounded cache instead of a weak one).
     */
    public static final int AGGREGATE_CACHE_SIZE = 100_000;

    /**
     * Events the event store reads per query when a processor streams it; a replay reads them all
     * its own way (BENCHMARKS.md, "Replay").
     */
    public static final int EVENT_FETCH_SIZE = 1000;

    /** Events between snapshots: of a channel ({@code channel}) and of a provider ({@code provider}). */
    public record Snapshots(@DefaultValue("250") int channel, @DefaultValue("100") int provider) {

        public Snapshots {
            if (channel < 1 || provider < 1) {
                throw new IllegalArgumentException("chan.ledger.snapshots.channel and .provider must be at least 1");
            }
        }
    }
}
