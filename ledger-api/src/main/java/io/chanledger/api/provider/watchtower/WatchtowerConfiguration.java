package io.chanledger.api.provider.watchtower;

import io.chanledger.api.ledger.chain.ListenerProperties;
import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.chain.ingest.ListenerStore;
import io.chanledger.chain.lookup.ContractChannelLookup;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.chain.rpc.RetryPolicy;
import io.chanledger.chain.tx.RevertReasons;
import io.chanledger.chain.tx.SenderSettings;
import io.chanledger.chain.tx.TransactionSender;
import io.chanledger.domain.money.Usdc;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.util.StringUtils;
import org.web3j.crypto.Credentials;

/**
 * The watchtower, when the gateway runs with a chain to claim on ({@code chan.chain.rpc-url}, or
 * {@code chan.gateway.watchtower.rpc-url} for a separate endpoint) and
 * {@code chan.gateway.watchtower.enabled} is not false. Without a chain the gateway serves and
 * meters, but nothing claims: the provider must then claim by other means before expiry. It has a JSON-RPC client of its own, so
 * the claims' retries and the listener's polling never wait on each other.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = "chan.gateway.watchtower", name = "enabled", havingValue = "true", matchIfMissing = true)
class WatchtowerConfiguration {

    @Bean(destroyMethod = "close")
    @Conditional(ClaimsConfigured.class)
    Watchtower watchtower(WatchtowerProperties settings, ChainProperties chain, ProviderIdentity identity,
                          ChannelHistory history, ClaimStore store, DataSource dataSource, Clock clock,
                          MeterRegistry meters, CommandGateway commands, ChainViewCheck chainViewCheck) {
        String rpcUrl = StringUtils.hasText(settings.rpcUrl()) ? settings.rpcUrl() : chain.rpcUrl();
        RetryPolicy retry = new RetryPolicy(chain.rpc().attempts(), Duration.ofMillis(200), Duration.ofSeconds(5), 2.0, 0.5);
        EthApi eth = new EthApi(new JsonRpcClient(rpcUrl, chain.rpc().timeout(), retry));
        return create(settings, eth, chain, identity.credentials(), history, store, new JdbcTemplate(dataSource), clock,
                new WatchtowerMetrics(meters, identity.address()), commands, chainViewCheck);
    }

    /** The listener's checkpoint, wherever the listener runs, judged by its lag limits. */
    @Bean
    @Conditional(ClaimsConfigured.class)
    ChainViewCheck chainViewCheck(ConnectionProvider connections, ListenerProperties listener, ChainProperties chain) {
        return new ChainViewCheck(new ListenerStore(connections), listener.listenerId(chain), listener.lag().limits(),
                listener.startBlock());
    }

    /** A watchtower claiming with the key of {@code provider} through {@code eth}. */
    static Watchtower create(WatchtowerProperties settings, EthApi eth, ChainProperties chain,
                             Credentials provider, ChannelHistory history, ClaimStore store, JdbcTemplate jdbc,
                             Clock clock, WatchtowerMetrics metrics, CommandGateway commands,
                             ChainViewCheck chainViewCheck) {
        TransactionSender sender = new TransactionSender(eth, provider, chain.chainId(),
                new SenderSettings(settings.receiptTimeout(), Duration.ofMillis(500), chain.fees().minPriorityFee(),
                        chain.fees().maxFeeCap(), SenderSettings.defaults().gasHeadroomPercent()),
                RevertReasons.channelContract());
        ClaimExecutor executor = new ClaimExecutor(sender, eth,
                new ContractChannelLookup(eth, chain.channelContract()), chain.channelContract(),
                store, clock, settings, metrics);
        ClaimPlanner planner = new ClaimPlanner(Usdc.parseDecimalUsdc(settings.claimThreshold()),
                ExpiryMargin.of(settings));
        ReturnExecutor returns = new ReturnExecutor(sender, eth, chain.usdc(), new ReturnStore(jdbc), commands, clock,
                settings, metrics);
        return new Watchtower(executor, planner, returns, Usdc.parseDecimalUsdc(settings.minReturn()), history, store,
                new CloseWatch(jdbc, clock), jdbc, eth, clock, metrics, chainViewCheck);
    }

    @EventListener(ApplicationReadyEvent.class)
    void startWatchtower(ApplicationReadyEvent ready) {
        ObjectProvider<Watchtower> watchtower = ready.getApplicationContext().getBeanProvider(Watchtower.class);
        WatchtowerProperties settings = ready.getApplicationContext().getBean(WatchtowerProperties.class);
        watchtower.ifAvailable(w -> w.start(settings.interval()));
    }
}
