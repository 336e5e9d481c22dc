package io.chanledger.projections.marketplace;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The whole provider directory at one change count, read once and shared by every request until
 * the next change. {@code providers} are in listing order: highest score first, then by name.
 */
public record CatalogSnapshot(long version, Instant builtAt, List<ProviderView> providers) {

    public CatalogSnapshot {
        providers = List.copyOf(providers);
    }

    public static CatalogSnapshot empty(Instant at) {
        return new CatalogSnapshot(-1, at, List.of());
    }

    public Optional<ProviderView> find(String providerId) {
        return providers.stream().filter(p -> p.id().equals(providerId)).findFirst();
    }

    public Map<String, ProviderView> byId() {
        Map<String, ProviderView> map = new LinkedHashMap<>();
        providers.forEach(p -> map.put(p.id(), p));
        return map;
    }
}
