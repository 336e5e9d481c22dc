package io.chanledger.api.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.watchtower.CloseWatch;
import java.time.Clock;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Gateway mode: the provider's identity, its price list, the upstream and its payment terms.
 * Everything is checked at start-up, so a misconfigured gateway does not start instead of
 * refusing its first paying request.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnGateway
class GatewayConfiguration {

    private static final Logger log = LoggerFactory.getLogger(GatewayConfiguration.class);

    @Bean
    ProviderIdentity providerIdentity(GatewayProperties properties) {
        ProviderIdentity identity = ProviderIdentity.load(properties);
        log.info("provider gateway '{}' serving as {}", properties.name(), identity.checksumAddress());
        return identity;
    }

    @Bean
    CloseWatch closeWatch(DataSource dataSource, Clock clock) {
        return new CloseWatch(new JdbcTemplate(dataSource), clock);
    }

    @Bean
    PriceList priceList(GatewayProperties properties, Clock clock, ObjectMapper json) {
        return PriceList.of(properties, clock.instant().getEpochSecond(), json);
    }

    @Bean
    Upstreams upstreams(GatewayProperties properties, PriceList prices, ObjectMapper json, Clock clock) {
        return Upstreams.of(properties, prices, json, clock);
    }

    @Bean
    PaymentTerms paymentTerms(ProviderIdentity identity, ChainProperties chain, GatewayProperties properties) {
        if (GatewayProperties.blank(chain.channelContract())) {
            throw new IllegalStateException("the gateway needs chan.chain.channel-contract");
        }
        return new PaymentTerms(identity, chain, properties);
    }
}
