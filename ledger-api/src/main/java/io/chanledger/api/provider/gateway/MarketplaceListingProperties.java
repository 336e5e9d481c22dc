package io.chanledger.api.provider.gateway;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * A provider's listing at a marketplace ({@code chan.provider.*}): with {@code marketplaceUrl} set
 * the gateway registers itself there at start, signed with its wallet as the sign-up page signs
 * ({@link MarketplaceListing}); without it the provider simply serves.
 *
 * @param marketplaceUrl the marketplace's base URL ({@code https://market.example}); none: no listing
 * @param category       the listing's category ({@code llm}, {@code scraping}, …: the sign-up page's list)
 * @param contactEmail   the operator's address the marketplace keeps for itself; none: not given
 */
@ConfigurationProperties("chan.provider")
public record MarketplaceListingProperties(String marketplaceUrl, @DefaultValue("llm") String category,
                                        String contactEmail) {
}
