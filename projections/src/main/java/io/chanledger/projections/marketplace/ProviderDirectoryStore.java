package io.chanledger.projections.marketplace;

import io.chanledger.domain.provider.ModelPrice;
import io.chanledger.domain.provider.ProviderProfile;
import java.util.List;
import java.util.Optional;

/** Where the provider directory projection keeps its rows. Every write is idempotent. */
public interface ProviderDirectoryStore {

    Optional<ProviderRow> find(String providerId);

    /** Inserts or replaces the row. */
    void save(ProviderRow row);

    /** The provider's profile as registered. */
    void saveProfile(String providerId, ProviderProfile profile);

    /** The provider's complete model list from now on. */
    void replaceModels(String providerId, List<ModelPrice> models);

    /** Adds the entry unless the provider already has one with its sequence number. */
    void appendHistory(String providerId, HistoryEntry entry);

    /** Counts a change, so that every instance rebuilds its precomputed responses. */
    void markChanged();

    /** Forgets everything the events built (before a replay). */
    void clear();
}
