package io.chanledger.api.marketplace.directory;

import java.time.Duration;

/**
 * The quotas of one kind of report (feedback, telemetry): verified reports count per wallet,
 * unverified ones per source network, each at most {@code perSource} per provider per
 * {@code period}. Two tables per provider, so that no number of anonymous networks can crowd out
 * the wallets that pay the provider ({@link SourceQuota}).
 */
final class ReportQuotas {

    private final SourceQuota wallets;
    private final SourceQuota networks;

    ReportQuotas(int perSource, Duration period, int maxSourcesPerProvider) {
        this.wallets = new SourceQuota(perSource, period.toNanos(), maxSourcesPerProvider, System::nanoTime);
        this.networks = new SourceQuota(perSource, period.toNanos(), maxSourcesPerProvider, System::nanoTime);
    }

    boolean admit(String providerId, ReportSource source) {
        return switch (source) {
            case ReportSource.Wallet(String address) -> wallets.admit(providerId, address);
            case ReportSource.Network(String prefix) -> networks.admit(providerId, prefix);
        };
    }
}
