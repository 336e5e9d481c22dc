package io.chanledger.domain.provider;

import java.time.Instant;
import java.util.List;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The models and prices a health check read from the provider; recorded only when they changed. */
public record PublishProviderModels(
        @TargetAggregateIdentifier String providerId,
        List<ModelPrice> models,
        Instant publishedAt) {

    public PublishProviderModels {
        models = models == null ? List.of() : ModelPrice.canonical(models);
    }
}
