package io.chanledger.api.marketplace.directory;

import io.chanledger.domain.money.Usdc;
import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Marketplace settings: {@code chan.marketplace.*}.
 *
 * <ul>
 * <li>{@code marketplaceUrl}: the public base URL of this service (links in /api/agent and _meta);
 *     {@code directoryUrl}: the public provider directory, by default this service's.</li>
 * <li>{@code network}, {@code networkName}: what _meta and the signing information say (the versioned
 *     protocol identifier beside them is {@link io.chanledger.api.config.ProtocolProperties#NAME}).</li>
 * <li>{@code providerProtocol}: the {@code protocol} of each provider in the lists and the registry, which
 *     agent clients and validators compare with the scheme's name ({@code chan}; {@code mpp} is another
 *     payment scheme).</li>
 * <li>{@code subnet}: the netuid the validator registry reports; {@code registryCache}: how long one
 *     registry body is served (docs/protocol.md §2.5: five minutes).</li>
 * <li>{@code autoApproveBittensor}: list bittensor miners without waiting for an admin.</li>
 * <li>{@code allowPrivateAddresses}: let apiUrl point at any address, loopback, private, special-purpose
 *     or this machine's own (local networks and tests); off by default, since registration makes this
 *     service call the URL ({@link AddressPolicy}). {@code refusedAddresses}: further addresses or CIDR
 *     blocks never called, for what this machine's interfaces do not show (its public address behind
 *     NAT, a balancer's, the operator's other hosts).</li>
 * <li>{@code historyLimit}: status history entries per provider in the directory.</li>
 * <li>{@code sendfileMinBytes}: precomputed bodies from this size on are sent with Tomcat's sendfile
 *     (0: never).</li>
 * <li>{@code clientIpHeader}: a header set by a trusted reverse proxy whose last entry is the client
 *     address the rate limits of registration, feedback, telemetry and probe alerts count by (empty:
 *     the peer address); {@code maxRateLimitedClients}: clients each of those limits remembers.</li>
 * <li>{@code reportSourcesPerProvider}: the sources (wallets, and apart from them networks) whose
 *     feedback and telemetry reports each provider's quotas count per period; reports from further
 *     sources are dropped until the period ends.</li>
 * </ul>
 */
@ConfigurationProperties("chan.marketplace")
public record MarketplaceProperties(
        @DefaultValue("http://localhost:8080") String marketplaceUrl,
        String directoryUrl,
        @DefaultValue("chan") String providerProtocol,
        @DefaultValue("polygon") String network,
        @DefaultValue("Polygon Mainnet") String networkName,
        @DefaultValue("0") int subnet,
        @DefaultValue("5m") Duration registryCache,
        @DefaultValue("true") boolean autoApproveBittensor,
        @DefaultValue("false") boolean allowPrivateAddresses,
        @DefaultValue List<String> refusedAddresses,
        @DefaultValue("20") int historyLimit,
        @DefaultValue("49152") int sendfileMinBytes,
        String clientIpHeader,
        @DefaultValue("100000") int maxRateLimitedClients,
        @DefaultValue("256") int reportSourcesPerProvider,
        @DefaultValue Registration registration,
        @DefaultValue Health health,
        @DefaultValue Catalog catalog,
        @DefaultValue Agent agent,
        @DefaultValue Skills skills,
        @DefaultValue Feedback feedback,
        @DefaultValue Telemetry telemetry,
        @DefaultValue ProbeAlerts probeAlerts) {

    /**
     * {@code connectionTimeout}: the whole connection test ({@code GET {apiUrl}/v1/pricing}).
     * {@code signatureMaxAge} / {@code signatureMaxSkew}: how far issuedAt may lie in the past / future.
     * Per client {@code capacity} registrations at once, then one more every {@code refillInterval},
     * counted before anything else, since each makes this service call a URL.
     */
    public record Registration(
            @DefaultValue("10s") Duration connectionTimeout,
            @DefaultValue("10m") Duration signatureMaxAge,
            @DefaultValue("2m") Duration signatureMaxSkew,
            @DefaultValue("1048576") int maxResponseBytes,
            @DefaultValue("5") int capacity,
            @DefaultValue("1m") Duration refillInterval) {
    }

    /**
     * Polling of approved providers: a round every {@code interval}, each probe delayed by a random
     * part of {@code jitter}, at most {@code concurrency} at once, each request bounded by
     * {@code timeout}; {@code failuresBeforeOffline} failed rounds in a row take a provider offline.
     */
    public record Health(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("60s") Duration interval,
            @DefaultValue("10s") Duration jitter,
            @DefaultValue("5s") Duration timeout,
            @DefaultValue("8") int concurrency,
            @DefaultValue("3") int failuresBeforeOffline) {

        public Health {
            if (interval.isNegative() || interval.isZero()) {
                throw new IllegalArgumentException("chan.marketplace.health.interval must be positive");
            }
            if (concurrency < 1) {
                throw new IllegalArgumentException("chan.marketplace.health.concurrency must be at least 1");
            }
            if (failuresBeforeOffline < 1) {
                throw new IllegalArgumentException("chan.marketplace.health.failures-before-offline must be at least 1");
            }
        }
    }

    /** {@code debounce}: coalescing of local changes; {@code pollInterval}: how often other instances' changes are looked for. */
    public record Catalog(
            @DefaultValue("50ms") Duration debounce,
            @DefaultValue("2s") Duration pollInterval) {
    }

    /** What /api/agent says about this deployment. */
    public record Agent(
            @DefaultValue("Chan Ledger marketplace") String name,
            @DefaultValue("Discover AI and data providers and pay them per request with USDC payment channels "
                    + "on Polygon: no API keys, accounts or subscriptions.") String purpose,
            @DefaultValue("No SDK is needed: any EIP-712 library signs vouchers with the domain and types "
                    + "published at /api/chan/signing.") String sdk) {
    }

    /**
     * {@code location}: the skill files loaded at start, a Spring resource pattern. The default reads
     * the copies of deploy/skills packaged into the application; {@code file:/etc/chan/skills/*.json}
     * reads a directory of the deployment instead.
     */
    public record Skills(@DefaultValue("classpath:skills/*.json") String location) {
    }

    /**
     * Agents' reports on providers: counted over the last {@code window}, published in the directory
     * at most every {@code publishInterval} (each publication rebuilds the catalog); per client
     * {@code capacity} reports at once, then one more every {@code refillInterval}. One wallet (a
     * verified report) or one source network (an unverified one) counts at most
     * {@code reportsPerSource} reports per provider per {@code sourcePeriod}.
     */
    public record Feedback(
            @DefaultValue("7d") Duration window,
            @DefaultValue("30s") Duration publishInterval,
            @DefaultValue("20") int capacity,
            @DefaultValue("30s") Duration refillInterval,
            @DefaultValue("10") int reportsPerSource,
            @DefaultValue("1h") Duration sourcePeriod) {

        public Feedback {
            if (window.isNegative() || window.isZero() || publishInterval.isNegative() || publishInterval.isZero()
                    || sourcePeriod.isNegative() || sourcePeriod.isZero()) {
                throw new IllegalArgumentException(
                        "chan.marketplace.feedback.window, publish-interval and source-period must be positive");
            }
            if (reportsPerSource < 1) {
                throw new IllegalArgumentException("chan.marketplace.feedback.reports-per-source must be at least 1");
            }
        }
    }

    /**
     * Usage events: bodies of at most {@code maxBodyBytes} holding at most {@code maxEvents} events,
     * counted under at most {@code maxEventNames} distinct names (the rest as {@code other}); per
     * client {@code capacity} posts at once, then one more every {@code refillInterval}. Reports of
     * paid requests are aggregated per provider over {@code window} and published at most every
     * {@code publishInterval}; one wallet (verified reports) or one source network (unverified
     * ones) counts at most {@code reportsPerSource} reports per provider per {@code sourcePeriod}; a
     * report may claim a cost of at most {@code maxCostPerRequest} USDC.
     */
    public record Telemetry(
            @DefaultValue("16384") int maxBodyBytes,
            @DefaultValue("100") int maxEvents,
            @DefaultValue("50") int maxEventNames,
            @DefaultValue("60") int capacity,
            @DefaultValue("1s") Duration refillInterval,
            @DefaultValue("24h") Duration window,
            @DefaultValue("30s") Duration publishInterval,
            @DefaultValue("30") int reportsPerSource,
            @DefaultValue("1h") Duration sourcePeriod,
            @DefaultValue("10") String maxCostPerRequest) {

        public Telemetry {
            if (maxBodyBytes < 1 || maxEvents < 1 || maxEventNames < 1 || reportsPerSource < 1) {
                throw new IllegalArgumentException("chan.marketplace.telemetry.max-body-bytes, max-events, "
                        + "max-event-names and reports-per-source must be at least 1");
            }
            if (window.isNegative() || window.isZero() || publishInterval.isNegative() || publishInterval.isZero()
                    || sourcePeriod.isNegative() || sourcePeriod.isZero()) {
                throw new IllegalArgumentException(
                        "chan.marketplace.telemetry.window, publish-interval and source-period must be positive");
            }
            Usdc.parseDecimalUsdc(maxCostPerRequest);
        }

        /** {@link #maxCostPerRequest} in USDC base units. */
        public BigInteger maxCostBaseUnits() {
            return Usdc.parseDecimalUsdc(maxCostPerRequest);
        }
    }

    /**
     * Validators' reports of unreachable providers: per client {@code capacity} alerts at once, then
     * one more every {@code refillInterval}; a provider is probed for alerts at most once per
     * {@code cooldown}, so many validators reporting one provider make one probe.
     */
    public record ProbeAlerts(
            @DefaultValue("60") int capacity,
            @DefaultValue("1s") Duration refillInterval,
            @DefaultValue("30s") Duration cooldown) {
    }

    public MarketplaceProperties {
        marketplaceUrl = stripTrailingSlash(marketplaceUrl);
        directoryUrl = directoryUrl == null || directoryUrl.isBlank()
                ? marketplaceUrl + "/api/directory/providers" : directoryUrl;
        if (registryCache.isNegative()) {
            throw new IllegalArgumentException("chan.marketplace.registry-cache must not be negative");
        }
        if (reportSourcesPerProvider < 1) {
            throw new IllegalArgumentException("chan.marketplace.report-sources-per-provider must be at least 1");
        }
        refusedAddresses = refusedAddresses == null ? List.of() : List.copyOf(refusedAddresses);
        blocks(refusedAddresses);
    }

    /** {@link #refusedAddresses} read as blocks. */
    List<AddressBlock> refusedAddressBlocks() {
        return blocks(refusedAddresses);
    }

    /** A setting that is not an address or CIDR block stops the start. */
    private static List<AddressBlock> blocks(List<String> cidrs) {
        try {
            return cidrs.stream().map(cidr -> AddressBlock.parse(cidr, "chan.marketplace.refused-addresses")).toList();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("chan.marketplace.refused-addresses: " + e.getMessage(), e);
        }
    }

    public String url(String path) {
        return marketplaceUrl + path;
    }

    private static String stripTrailingSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
