package io.chanledger.api.provider.boundaryfixture;

import io.chanledger.api.marketplace.directory.MarketplaceProperties;

/** Crosses from the provider's code into the marketplace's on purpose (BoundaryRulesTest). */
public class UsesTheMarketplace {

    MarketplaceProperties marketplace;
}
