package io.chanledger.api.provider.x402;

import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.provider.gateway.ConditionalOnGateway;
import io.chanledger.api.provider.gateway.ProviderIdentity;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.chain.rpc.RetryPolicy;
import io.chanledger.chain.tx.RevertReasons;
import io.chanledger.chain.tx.SenderSettings;
import io.chanledger.chain.tx.TransactionSender;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The provider's facilitator, in gateway mode when a chain and its token are configured: it
 * settles with the provider's key, and a background pass finishes what requests left unfinished
 * (at start, then every {@link #RECOVERY_INTERVAL}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnGateway
@Conditional(X402Configured.class)
class X402Configuration {

    /** A reservation older than this belongs to a request that died; no paid call lasts that long. */
    static final Duration RESERVATION_TIMEOUT = Duration.ofMinutes(15);
    static final Duration RECOVERY_INTERVAL = Duration.ofSeconds(5);

    @Bean
    ProviderFacilitator providerFacilitator(ChainProperties chain, ProviderIdentity identity, DataSource dataSource,
                                            Clock clock, X402FacilitatorProperties settings) {
        RetryPolicy retry = new RetryPolicy(chain.rpc().attempts(), Duration.ofMillis(200), Duration.ofSeconds(5), 2.0, 0.5);
        EthApi eth = new EthApi(new JsonRpcClient(chain.rpcUrl(), chain.rpc().timeout(), retry));
        TransactionSender sender = new TransactionSender(eth, identity.credentials(), chain.chainId(),
                new SenderSettings(settings.receiptTimeout(), Duration.ofMillis(100), chain.fees().minPriorityFee(),
                        chain.fees().maxFeeCap(), SenderSettings.defaults().gasHeadroomPercent()),
                new RevertReasons(Map.of()));
        return new ProviderFacilitator(eth, sender, dataSource, clock, chain.chainId(), chain.usdc(), settings.validityMargin(),
                RESERVATION_TIMEOUT, ProviderFacilitator.SettledPayments.NONE);
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    X402RecoveryScheduler x402RecoveryScheduler(ProviderFacilitator facilitator) {
        return new X402RecoveryScheduler(facilitator, RECOVERY_INTERVAL);
    }
}
