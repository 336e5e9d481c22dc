package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.ledger.channels.command.ChannelCommits;
import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.ledger.wallet.WalletAudience;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.provider.watchtower.CloseWatch;
import io.chanledger.api.provider.x402.X402Settlement;
import org.springframework.beans.factory.ObjectProvider;
import java.time.Clock;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.context.event.EventListener;

/**
 * Gateway mode: the provider's identity, its price list, the upstream and its payment terms.
 * Everything is checked at start-up, so a misconfigured gateway does not start instead of
 * refusing its first paying request.
 */
@Configuration(proxyBeanMethods = false)
class GatewayConfiguration {

    private static final Logger log = LoggerFactory.getLogger(GatewayConfiguration.class);

    @Bean
    ProviderIdentity providerIdentity(GatewayProperties properties) {
        ProviderIdentity identity = ProviderIdentity.load(properties.providerKey(), properties.providerKeyFile());
        log.info("provider gateway '{}' serving as {}", properties.name(), identity.checksumAddress());
        return identity;
    }

    /** Wallet-signed requests to this server name the provider: also in a process that is the marketplace too. */
    @Bean
    @Primary
    WalletAudience providerAudience(ProviderIdentity identity) {
        return new WalletAudience.Provider(identity.address());
    }

    @Bean
    CloseWatch closeWatch(DataSource dataSource, Clock clock) {
        return new CloseWatch(new JdbcTemplate(dataSource), clock);
    }

    @Bean
    PaidAnswers paidAnswers(DataSource dataSource, ObjectMapper json, Clock clock, GatewayProperties properties) {
        return new PaidAnswers(new JdbcTemplate(dataSource), json, clock, properties.answerRetention(),
                properties.answerMaxBytes().toBytes());
    }

    @Bean
    HeldRequestRelease heldRequestRelease(DataSource dataSource, ChannelCommits commits, Metering metering,
                                          PaidAnswers answers, Clock clock, GatewayProperties properties,
                                          ProviderIdentity identity) {
        return new HeldRequestRelease(new JdbcTemplate(dataSource), commits, metering, answers, clock,
                properties.holdTtl(), identity.address());
    }

    /** Once the service is up (the ledger can take commands), holds left by a dead process are released. */
    @EventListener(ApplicationReadyEvent.class)
    void releaseHoldsLeftBehind(ApplicationReadyEvent ready) {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException unknown) {
            host = "localhost";
        }
        int port = ready.getApplicationContext() instanceof WebServerApplicationContext web
                ? web.getWebServer().getPort() : -1;
        ready.getApplicationContext().getBean(HeldRequestRelease.class).start(host + ":" + port);
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
    X402Offers x402Offers(GatewayProperties properties, PaymentTerms terms, ProviderIdentity identity,
                          ObjectProvider<X402Settlement> settlement) {
        return new X402Offers(properties.x402(), terms.usdc(), identity.checksumAddress(), settlement.getIfAvailable());
    }

    @Bean
    PaymentTerms paymentTerms(ProviderIdentity identity, ChainProperties chain, GatewayProperties properties) {
        if (GatewayProperties.blank(chain.channelContract())) {
            throw new IllegalStateException("the gateway needs chan.chain.channel-contract");
        }
        return new PaymentTerms(identity, chain, properties);
    }
}
