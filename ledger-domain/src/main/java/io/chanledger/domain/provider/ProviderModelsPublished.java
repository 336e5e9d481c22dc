package io.chanledger.domain.provider;

import java.time.Instant;
import java.util.List;

/** The provider's complete model and price list from now on (ordered by model id). */
public record ProviderModelsPublished(String providerId, List<ModelPrice> models, Instant publishedAt) {

    public ProviderModelsPublished {
        models = models == null ? List.of() : List.copyOf(models);
    }
}
