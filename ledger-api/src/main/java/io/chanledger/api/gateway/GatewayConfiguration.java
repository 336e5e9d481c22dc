package io.chanledger.api.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.watchtower.CloseWatch;
import java.time.Clock;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import java.util.Locale;
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
    PriceList priceList(GatewayProperties properties, Clock clock) {
        return PriceList.of(properties, clock.instant().getEpochSecond());
    }

    @Bean
    Upstream upstream(GatewayProperties properties, ObjectMapper json, Clock clock) {
        GatewayProperties.Upstream upstream = properties.upstream();
        return switch (upstream.kind().toLowerCase(Locale.ROOT)) {
            case "echo" -> new EchoUpstream(json, clock, upstream.echoStreamDelay(), upstream.echoAnswerTokens());
            case "openai" -> {
                if (GatewayProperties.blank(upstream.baseUrl())) {
                    throw new IllegalStateException("chan.gateway.upstream.base-url is needed for the openai upstream");
                }
                yield new OpenAiUpstream(upstream.baseUrl(), upstream.apiKey(), upstream.connectTimeout(),
                        upstream.timeout(), json);
            }
            default -> throw new IllegalStateException("chan.gateway.upstream.kind must be echo or openai, not "
                    + upstream.kind());
        };
    }

    @Bean
    PaymentTerms paymentTerms(ProviderIdentity identity, ChainProperties chain, GatewayProperties properties) {
        if (GatewayProperties.blank(chain.channelContract())) {
            throw new IllegalStateException("the gateway needs chan.chain.channel-contract");
        }
        return new PaymentTerms(identity, chain, properties);
    }
}
