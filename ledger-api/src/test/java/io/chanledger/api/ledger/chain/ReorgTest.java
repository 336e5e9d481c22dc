package io.chanledger.api.ledger.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.testsupport.DevnetAccounts;
import io.chanledger.chain.ingest.ChainListener;
import io.chanledger.chain.ingest.Checkpoint;
import io.chanledger.chain.ingest.Finality;
import io.chanledger.chain.ingest.ListenerHaltedException;
import io.chanledger.chain.ingest.ListenerStats;
import io.chanledger.chain.ingest.ListenerStore;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.chain.rpc.RetryPolicy;
import java.math.BigInteger;
import java.time.Duration;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.common.transaction.TransactionManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.health.Status;
import org.web3j.crypto.Credentials;

/** Depth mode on a node of its own, reorganised with anvil snapshots. */
class ReorgTest extends LedgerIntegrationTest {

    private static final BigInteger DEPOSIT = BigInteger.valueOf(1_000_000);
    private static final String PROVIDER_A = DevnetAccounts.anvil(2).getAddress();
    private static final String PROVIDER_B = DevnetAccounts.anvil(3).getAddress();

    @Autowired
    ListenerStore store;
    @Autowired
    CommandGateway commands;
    @Autowired
    TransactionManager transactions;

    private SeparateChain chain;
    private EthApi eth;
    private LedgerView ledger;
    private Credentials consumer;

    @BeforeEach
    void startNode() {
        chain = new SeparateChain(store, commands, transactions);
        eth = new EthApi(new JsonRpcClient(chain.node.rpcUrl(), Duration.ofSeconds(5), RetryPolicy.defaults()));
        ledger = new LedgerView(baseUrl());
        consumer = chain.freshConsumer(DEPOSIT.multiply(BigInteger.TEN));
    }

    @AfterEach
    void stopNode() {
        chain.close();
    }

    private String open(String provider) {
        return chain.devnet.open(consumer, provider, DEPOSIT, 86_400).channelId();
    }

    @Test
    void aReorganisationAboveTheFinalityLineLeavesNoTrace() {
        String id = SeparateChain.uniqueId("reorg-above");
        ChainListener listener = chain.listener(id, eth, Finality.depth(3), 100, 100);
        String kept = open(PROVIDER_A);
        chain.mine(3);
        listener.poll();
        assertThat(ledger.eventTypes(kept)).containsExactly("ChannelOpened");

        String snapshot = chain.devnet.snapshot();
        String orphaned = open(PROVIDER_A);
        chain.devnet.claim(DevnetAccounts.anvil(2), orphaned, BigInteger.ONE, BigInteger.ONE,
                chain.devnet.signVoucher(consumer, orphaned, BigInteger.ONE, BigInteger.ONE));
        listener.poll();
        assertThat(ledger.channel(orphaned)).as("not final yet, so not recorded").isNull();

        chain.devnet.revertTo(snapshot);
        String replacement = open(PROVIDER_B);
        chain.mine(3);
        listener.poll();

        assertThat(ledger.eventTypes(replacement)).containsExactly("ChannelOpened");
        assertThat(ledger.eventTypes(orphaned)).as("nothing of the orphaned blocks").isEmpty();
        Checkpoint checkpoint = store.checkpoint(id).orElseThrow();
        assertThat(checkpoint.blockHash()).isEqualTo(eth.block(checkpoint.blockNumber()).orElseThrow().hash());
        assertThat(listener.stats().state()).isEqualTo(ListenerStats.State.RUNNING);
    }

    @Test
    void aReorganisationBelowTheFinalityLineHaltsTheListenerWithAnAlert() {
        String id = SeparateChain.uniqueId("reorg-below");
        ChainListener listener = chain.listener(id, eth, Finality.depth(1), 100, 100);
        String snapshot = chain.devnet.snapshot();
        open(PROVIDER_A);
        chain.mine(3);
        listener.poll();
        Checkpoint ingested = store.checkpoint(id).orElseThrow();

        chain.devnet.revertTo(snapshot);
        String replacement = open(PROVIDER_B);
        chain.mine(5);

        assertThatThrownBy(listener::poll).isInstanceOfSatisfying(ListenerHaltedException.class,
                halted -> assertThat(halted.reason()).isEqualTo(ListenerStats.HaltReason.REORG));
        assertThat(listener.stats().state()).isEqualTo(ListenerStats.State.HALTED);
        assertThat(listener.stats().haltDetail()).contains("block " + ingested.blockNumber());
        assertThat(new ListenerHealthIndicator(listener, 5, Duration.ofMinutes(2)).health().getStatus()).isEqualTo(Status.DOWN);
        assertThat(store.checkpoint(id)).contains(ingested);
        assertThat(ledger.channel(replacement)).isNull();
        assertThatThrownBy(listener::poll).as("stays halted").isInstanceOf(ListenerHaltedException.class);
    }
}
