package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.projections.marketplace.CatalogSnapshot;
import io.chanledger.projections.marketplace.ProviderRow;
import io.chanledger.projections.marketplace.ProviderView;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.http.CacheControl;

/**
 * The validator registry body, computed at most once per {@code registryCache} (docs/protocol.md
 * §2.5: five minutes) and served unchanged meanwhile; {@code Cache-Control} tells clients how long the body
 * they got stays current here, so a client cache never stretches it past the period.
 */
final class ValidatorRegistry {

    /** Every provider must answer it without payment (docs/protocol.md §C.5); its base URL need not answer at all. */
    static final String PROBE_PATH = "/v1/models";

    private record Cached(Rendered rendered, Instant builtAt) {
    }

    /** What one request gets: the body and how many seconds it stays current. */
    record Answer(Rendered rendered, long maxAgeSeconds) {
        CacheControl cacheControl() {
            return CacheControl.maxAge(Duration.ofSeconds(maxAgeSeconds)).cachePublic();
        }
    }

    private final Supplier<CatalogSnapshot> catalog;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final Duration ttl;
    private final int subnet;
    private final String protocol;
    private Cached cached;

    ValidatorRegistry(Supplier<CatalogSnapshot> catalog, ObjectMapper mapper, Clock clock, Duration ttl, int subnet,
                      String protocol) {
        this.catalog = catalog;
        this.mapper = mapper;
        this.clock = clock;
        this.ttl = ttl;
        this.subnet = subnet;
        this.protocol = protocol;
    }

    /** The URL validators' miners probe for a provider at {@code apiUrl}. */
    static String probeUrl(String apiUrl) {
        return apiUrl + PROBE_PATH;
    }

    synchronized Answer current() {
        Instant now = clock.instant();
        if (cached == null || !now.isBefore(cached.builtAt().plus(ttl))) {
            cached = new Cached(build(catalog.get(), now), now);
        }
        Duration left = Duration.between(now, cached.builtAt().plus(ttl));
        long seconds = (left.toMillis() + 999) / 1000;
        return new Answer(cached.rendered(), Math.max(0, seconds));
    }

    private Rendered build(CatalogSnapshot snapshot, Instant now) {
        List<RegistryResponse.Miner> miners = snapshot.providers().stream()
                .filter(p -> p.listed() && p.online())
                .map(this::miner)
                .toList();
        int online = (int) miners.stream().filter(RegistryResponse.Miner::online).count();
        return Rendered.of(mapper, new RegistryResponse(ProviderResponses.VERSION, ProviderResponses.millis(now), miners,
                miners.size(), online, subnet));
    }

    private RegistryResponse.Miner miner(ProviderView view) {
        ProviderRow row = view.row();
        return new RegistryResponse.Miner(row.providerId(), row.name(), row.tier(), row.category(),
                row.additionalCategories(), row.apiUrl(), Hex.toChecksumAddress(row.address()), row.hotkey(), row.uid(),
                row.score() == null ? BigDecimal.ZERO : row.score(), view.online(),
                view.online() && !view.models().isEmpty() && view.health().consecutiveFailures() == 0,
                view.health().latencyMs(), ProviderResponses.millis(view.health().lastChecked()), view.models().size(),
                protocol, probeUrl(row.apiUrl()));
    }
}
