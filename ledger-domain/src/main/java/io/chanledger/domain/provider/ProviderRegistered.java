package io.chanledger.domain.provider;

import java.time.Instant;
import java.util.List;

/** A provider proved its address and passed the connection test. Followed by its models and status. */
public record ProviderRegistered(
        String providerId,
        String address,
        String name,
        String description,
        String apiUrl,
        ProviderCategory category,
        List<ProviderCategory> additionalCategories,
        ProviderTier tier,
        String hotkey,
        Integer uid,
        String docsUrl,
        Instant registeredAt,
        ProviderProfile profile) {

    /** {@code profile} is absent from events recorded before it was asked: read as {@link ProviderProfile#NONE}. */
    public ProviderRegistered {
        additionalCategories = additionalCategories == null ? List.of() : List.copyOf(additionalCategories);
        profile = profile == null ? ProviderProfile.NONE : profile;
    }

    public ProviderRegistered(String providerId, String address, String name, String description, String apiUrl,
                              ProviderCategory category, List<ProviderCategory> additionalCategories,
                              ProviderTier tier, String hotkey, Integer uid, String docsUrl, Instant registeredAt) {
        this(providerId, address, name, description, apiUrl, category, additionalCategories, tier, hotkey, uid,
                docsUrl, registeredAt, null);
    }
}
