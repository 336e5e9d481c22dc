package io.chanledger.api.ledger.chain;

import io.chanledger.testsupport.AnvilNode;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.DevnetAccounts;
import io.chanledger.chain.ingest.BatchCommitter;
import io.chanledger.chain.ingest.ChainListener;
import io.chanledger.chain.ingest.Finality;
import io.chanledger.chain.ingest.ListenerSettings;
import io.chanledger.chain.ingest.ListenerStore;
import io.chanledger.chain.rpc.EthApi;
import java.math.BigInteger;
import java.util.UUID;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.common.transaction.TransactionManager;
import org.web3j.crypto.Credentials;

/**
 * A node of a test's own (for reorganisations and faults the shared devnet must not see), with
 * listeners that record into the application's ledger under an id of their own. Its channels
 * are opened by consumers with fresh keys, so their ids never meet the shared devnet's.
 */
final class SeparateChain implements AutoCloseable {

    final AnvilNode node;
    final Devnet devnet;
    private final ListenerStore store;
    private final CommandGateway commands;
    private final TransactionManager transactions;

    SeparateChain(ListenerStore store, CommandGateway commands, TransactionManager transactions) {
        this.node = AnvilNode.start();
        this.devnet = Devnet.deploy(node);
        this.store = store;
        this.commands = commands;
        this.transactions = transactions;
    }

    /** A consumer nobody used before, with gas money, USDC and an allowance for the channel contract. */
    Credentials freshConsumer(BigInteger usdc) {
        Credentials consumer = DevnetAccounts.labelled("consumer-" + UUID.randomUUID());
        devnet.setBalance(consumer.getAddress(), Devnet.GAS_MONEY);
        devnet.mint(consumer.getAddress(), usdc);
        devnet.approve(consumer, devnet.channelAddress(), usdc);
        return consumer;
    }

    static String uniqueId(String purpose) {
        return purpose + "-" + UUID.randomUUID();
    }

    ChainListener listener(String id, EthApi eth, Finality finality, int maxBlockRange, int maxLogsPerBatch) {
        ListenerSettings settings = new ListenerSettings(id, devnet.chainId(), devnet.channelAddress(), finality,
                maxBlockRange, 0, maxLogsPerBatch);
        return new ChainListener(settings, eth, store, new BatchCommitter(commands, transactions, store,
                BatchCommitter.Probe.NONE));
    }

    void mine(int blocks) {
        for (int i = 0; i < blocks; i++) {
            devnet.mine();
        }
    }

    @Override
    public void close() {
        node.close();
    }
}
