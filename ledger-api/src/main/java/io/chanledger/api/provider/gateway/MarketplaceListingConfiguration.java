package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.provider.ProviderIdentity;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

/**
 * A provider with a marketplace ({@code chan.provider.marketplace-url}) lists itself there once it
 * serves: the marketplace's connection test reads this gateway's {@code /v1/pricing}, so the
 * listing starts after the web server, on a thread of its own, and never holds the start up.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnExpression("'${chan.provider.marketplace-url:}'.trim() != ''")
class MarketplaceListingConfiguration {

    @Bean
    MarketplaceListing marketplaceListing(MarketplaceListingProperties listing, GatewayProperties gateway,
                                          ProviderIdentity identity, ChainProperties chain, ObjectMapper json,
                                          Clock clock) {
        return new MarketplaceListing(listing, gateway, identity, chain, json, clock);
    }

    @EventListener(ApplicationReadyEvent.class)
    void listAtTheMarketplace(ApplicationReadyEvent ready) {
        MarketplaceListing listing = ready.getApplicationContext().getBean(MarketplaceListing.class);
        Thread.ofVirtual().name("marketplace-listing").start(listing::list);
    }
}
