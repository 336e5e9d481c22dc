package io.chanledger.domain.provider;

import java.time.Instant;
import java.util.List;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Registers a provider whose wallet signature and connection test have already passed.
 * {@code models} are what its {@code /v1/pricing} answered at {@code registeredAt}; the provider's
 * contact address is personal data and is kept out of the event store on purpose.
 * {@code profile} (logo, website, streaming) is public; {@code autoApprove} lists the provider at once (see the marketplace's tier policy).
 */
public record RegisterProvider(
        @TargetAggregateIdentifier String providerId,
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
        List<ModelPrice> models,
        Instant registeredAt,
        boolean autoApprove,
        ProviderProfile profile) {

    public RegisterProvider {
        additionalCategories = additionalCategories == null ? List.of() : List.copyOf(additionalCategories);
        models = models == null ? List.of() : ModelPrice.canonical(models);
        profile = profile == null ? ProviderProfile.NONE : profile;
    }

    /** A registration that gave no profile. */
    public RegisterProvider(String providerId, String address, String name, String description, String apiUrl,
                            ProviderCategory category, List<ProviderCategory> additionalCategories, ProviderTier tier,
                            String hotkey, Integer uid, String docsUrl, List<ModelPrice> models, Instant registeredAt,
                            boolean autoApprove) {
        this(providerId, address, name, description, apiUrl, category, additionalCategories, tier, hotkey, uid,
                docsUrl, models, registeredAt, autoApprove, null);
    }
}
