package io.chanledger.api.marketplace.gasstation;

import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.http.ClientRateLimiter;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.chain.rpc.RetryPolicy;
import io.chanledger.chain.tx.RevertReasons;
import io.chanledger.chain.tx.SenderSettings;
import io.chanledger.chain.tx.TransactionSender;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.gasgrant.GasGrantAggregateDefinition;
import io.chanledger.projections.gasgrant.GasGrantProjection;
import io.chanledger.projections.gasgrant.GasGrantTable;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.web3j.crypto.Credentials;

/**
 * Wires the gas station: the GasGrant aggregate, the {@code gas_grant} table kept in the event's
 * transaction, the station itself (with its own JSON-RPC client and transaction sender for the
 * faucet, or disabled when no faucet key or RPC URL is configured), recovery, rate limit, health
 * and metrics.
 */
@Configuration(proxyBeanMethods = false)
class GasStationConfiguration {

    private static final Logger log = LoggerFactory.getLogger(GasStationConfiguration.class);

    @Bean
    ConfigurerModule gasGrantAggregateModule() {
        return configurer -> configurer.configureAggregate(GasGrantAggregateDefinition.configurer());
    }

    /** Subscribing, errors propagated: the row commits with the event or neither does. */
    @Bean
    ConfigurerModule gasGrantProcessor() {
        return configurer -> configurer.eventProcessing()
                .registerSubscribingEventProcessor(GasGrantProjection.PROCESSING_GROUP)
                .registerListenerInvocationErrorHandler(GasGrantProjection.PROCESSING_GROUP,
                        c -> PropagatingErrorHandler.instance());
    }

    @Bean
    GasGrantTable gasGrantTable(JdbcTemplate jdbc) {
        return new GasGrantTable(jdbc);
    }

    @Bean
    GasGrantProjection gasGrantProjection(GasGrantTable table) {
        return new GasGrantProjection(table);
    }

    @Bean
    GasStationMetrics gasStationMetrics(MeterRegistry registry) {
        return new GasStationMetrics(registry);
    }

    @Bean
    GasStation gasStation(GasStationProperties properties, ChainProperties chain, CommandGateway commands,
                          GasGrantTable table, GasStationMetrics metrics, Clock clock) {
        Optional<Credentials> faucet = FaucetKeys.load(properties);
        String reason = null;
        if (!chain.rpcConfigured()) {
            reason = "chan.chain.rpc-url is not set";
        } else if (faucet.isEmpty()) {
            reason = "no faucet key (chan.gas-station.faucet-key or faucet-key-file)";
        } else if (chain.usdc() == null || !Hex.isAddress(chain.usdc())) {
            reason = "chan.chain.usdc is not an address";
        }
        if (reason != null) {
            log.info("gas station off: {}", reason);
            return new DisabledGasStation(reason, metrics);
        }
        RetryPolicy retry = new RetryPolicy(chain.rpc().attempts(), Duration.ofMillis(200), Duration.ofSeconds(2), 2.0, 0.5);
        EthApi eth = new EthApi(new JsonRpcClient(chain.rpcUrl(), chain.rpc().timeout(), retry));
        EnabledGasStation station = assemble(eth, faucet.get(), chain.chainId(), Hex.normalizeAddress(chain.usdc()),
                properties, chain.fees(), new GrantLedger(commands, clock), table, metrics, clock);
        log.info("gas station on: faucet {}, grant {} wei, minimum {} USDC base units",
                Hex.toChecksumAddress(station.faucet()), properties.grantWei(), properties.minUsdc());
        return station;
    }

    /** A station for one faucet on one node; the application has one, tests build more. */
    static EnabledGasStation assemble(EthApi eth, Credentials faucet, long chainId, String usdc,
                                      GasStationProperties properties, ChainProperties.Fees fees,
                                      GrantLedger ledger, GasGrantTable table, GasStationMetrics metrics, Clock clock) {
        // The sender returns right after the broadcast (no receipt wait of its own), so the hash is
        // recorded at once; the station waits for the receipt itself.
        SenderSettings sending = new SenderSettings(Duration.ZERO, properties.receiptPollInterval(),
                fees.minPriorityFee(), fees.maxFeeCap(), 0);
        TransactionSender sender = new TransactionSender(eth, faucet, chainId, sending, new RevertReasons(Map.of()));
        FaucetChain chain = new FaucetChain(eth, sender, usdc, properties.transferGas(), fees.minPriorityFee(),
                fees.maxFeeCap());
        LiveAttempts live = new LiveAttempts();
        GrantRecovery recovery = new GrantRecovery(chain, ledger, table, live, metrics, clock, properties.staleAfter(),
                properties.maxScanBlocks());
        FaucetHealth faucetHealth = new FaucetHealth(chain, properties.grantWei(), metrics, clock);
        ReceiptWait receipts = new ReceiptWait(chain, properties.receiptTimeout(), properties.receiptPollInterval());
        return new EnabledGasStation(chain, ledger, table, recovery, live, faucetHealth, receipts, metrics, properties,
                properties.grants().newLimiter());
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    GrantRecoveryScheduler gasGrantRecoveryScheduler(GasStation station, GasStationProperties properties) {
        GrantRecovery recovery = station instanceof EnabledGasStation enabled ? enabled.recovery() : null;
        return new GrantRecoveryScheduler(recovery, properties.resolveInterval());
    }

    @Bean
    ClientRateLimiter gasStationRateLimiter(GasStationProperties properties) {
        return properties.rateLimit().newLimiter();
    }

    @Bean
    GasStationHealthIndicator gasStationHealthIndicator(GasStation station, GasStationProperties properties) {
        return new GasStationHealthIndicator(station, properties.faucetCheckMaxAge());
    }
}
