package io.chanledger.projections.marketplace;

import io.chanledger.domain.provider.ModelPrice;
import io.chanledger.domain.provider.ProviderProfile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The store's contract in memory, so the projection's handlers can be called directly. */
final class InMemoryProviderDirectoryStore implements ProviderDirectoryStore {

    final Map<String, ProviderRow> rows = new HashMap<>();
    final Map<String, List<ModelPrice>> models = new HashMap<>();
    final Map<String, List<HistoryEntry>> history = new HashMap<>();
    final Map<String, ProviderProfile> profiles = new HashMap<>();
    int changes;

    @Override
    public Optional<ProviderRow> find(String providerId) {
        return Optional.ofNullable(rows.get(providerId));
    }

    @Override
    public void save(ProviderRow row) {
        rows.put(row.providerId(), row);
    }

    @Override
    public void saveProfile(String providerId, ProviderProfile profile) {
        profiles.put(providerId, profile);
    }

    @Override
    public void replaceModels(String providerId, List<ModelPrice> list) {
        models.put(providerId, List.copyOf(list));
    }

    @Override
    public void appendHistory(String providerId, HistoryEntry entry) {
        List<HistoryEntry> entries = history.computeIfAbsent(providerId, k -> new ArrayList<>());
        if (entries.stream().noneMatch(e -> e.sequence() == entry.sequence())) {
            entries.add(entry);
        }
    }

    @Override
    public void markChanged() {
        changes++;
    }

    @Override
    public void clear() {
        rows.clear();
        models.clear();
        history.clear();
        profiles.clear();
    }
}
