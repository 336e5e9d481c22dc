package io.chanledger.api.ledger.chain;

import io.chanledger.api.config.ChainProperties;
import io.chanledger.chain.ingest.BatchCommitter;
import io.chanledger.chain.ingest.ChainListener;
import io.chanledger.chain.ingest.ListenerRunner;
import io.chanledger.chain.ingest.ListenerSettings;
import io.chanledger.chain.ingest.ListenerStore;
import io.chanledger.chain.lookup.ContractChannelLookup;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.domain.channel.ChannelLookup;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.transaction.TransactionManager;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The chain side of the ledger, present when {@code chan.chain.rpc-url} is set: the JSON-RPC
 * client, the start-up check of the contract's signing domain, the {@code getChannel} lookup
 * behind provisional opens, and (unless
 * {@code chan.listener.enabled} is false) the listener on its own thread with its health and meters.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(RpcConfigured.class)
class ChainConfiguration {

    @Bean
    EthApi chainNode(ChainProperties chain, ListenerProperties listener) {
        ListenerProperties.Rpc rpc = listener.rpc();
        return new EthApi(new JsonRpcClient(chain.rpcUrl(), chain.rpc().timeout(), rpc.retryPolicy(chain.rpc().attempts()), rpc.maxBatchSize(),
                duration -> Thread.sleep(duration.toMillis())));
    }

    @Bean
    ChannelLookup channelLookup(EthApi chainNode, ChainProperties chain) {
        return new ContractChannelLookup(chainNode, chain.channelContract());
    }

    /** Start-up fails here when the contract signs in another domain than the configured one. */
    @Bean
    SigningDomainCheck signingDomainCheck(EthApi chainNode, ChainProperties chain) {
        return new SigningDomainCheck(chainNode, chain.signingDomain());
    }

    @Bean
    ListenerStore listenerStore(ConnectionProvider connectionProvider) {
        return new ListenerStore(connectionProvider);
    }

    /** Component scanning finds this class on its own, so it repeats the outer condition. */
    @Configuration(proxyBeanMethods = false)
    @Conditional(RpcConfigured.class)
    @ConditionalOnProperty(prefix = "chan.listener", name = "enabled", havingValue = "true", matchIfMissing = true)
    static class Listening {

        @Bean
        ChainListener chainListener(ChainProperties chain, ListenerProperties listener, EthApi chainNode,
                                    ListenerStore listenerStore, CommandGateway commandGateway,
                                    TransactionManager transactionManager) {
            ListenerSettings settings = new ListenerSettings(listener.listenerId(chain), chain.chainId(),
                    chain.channelContract(), listener.finalityRule(), listener.maxBlockRange(), listener.startBlock(),
                    listener.maxLogsPerBatch(), listener.lag().limits());
            BatchCommitter committer = new BatchCommitter(commandGateway, transactionManager, listenerStore,
                    BatchCommitter.Probe.NONE);
            return new ChainListener(settings, chainNode, listenerStore, committer);
        }

        @Bean
        ListenerLifecycle chainListenerLifecycle(ChainListener chainListener, ListenerProperties listener) {
            return new ListenerLifecycle(new ListenerRunner(chainListener, listener.pollInterval(), listener.maxBackoff()));
        }

        @Bean
        ListenerHealthIndicator chainListenerHealthIndicator(ChainListener chainListener, ListenerProperties listener) {
            return new ListenerHealthIndicator(chainListener, listener.failuresBeforeDown(), listener.lag().grace());
        }

        @Bean
        ListenerMeters chainListenerMeters(ChainListener chainListener) {
            return new ListenerMeters(chainListener.stats());
        }
    }
}
